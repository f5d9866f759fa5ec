package main

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
)

// mustRandom fills b from crypto/rand; the process cannot work without it.
func mustRandom(b []byte) {
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err))
	}
}

// newUUID returns a random (version 4) UUID, the identifier of every resource.
func newUUID() string {
	var b [16]byte
	mustRandom(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// randomFrom returns n characters drawn uniformly from alphabet
// (rejection sampling, alphabet shorter than 256).
func randomFrom(alphabet string, n int) string {
	out := make([]byte, 0, n)
	limit := 256 - 256%len(alphabet)
	var buf [64]byte
	for len(out) < n {
		mustRandom(buf[:])
		for _, c := range buf {
			if int(c) < limit && len(out) < n {
				out = append(out, alphabet[int(c)%len(alphabet)])
			}
		}
	}
	return string(out)
}

const (
	base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	// Crockford's base 32: no I, L, O, U.
	crockford32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
)

// KeyPrefix is the fixed start of every API key.
const KeyPrefix = "sk_"

const keySecretLength = 40

// newAPIKeyToken returns a fresh key: the prefix and 40 base62 characters
// (about 238 bits of entropy).
func newAPIKeyToken() string {
	return KeyPrefix + randomFrom(base62, keySecretLength)
}

// hashKey is the only form in which a key is kept. Keys are long random
// strings, so a plain SHA-256 is a secure hash for them.
func hashKey(token string) [32]byte {
	return sha256.Sum256([]byte(token))
}

// newServiceID returns the short second identifier of a record.
func newServiceID() string {
	return randomFrom(crockford32, 8)
}
