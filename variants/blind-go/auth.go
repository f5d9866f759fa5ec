package main

import (
	"net/http"
	"strings"
)

// credential classifies what the Authorization header carried.
type credential int

const (
	credMissing   credential = iota // no Authorization header
	credMalformed                   // the header is not "Bearer <one token>"
	credBadFormat                   // one token, but not shaped like a key (no prefix)
	credKeyShaped                   // "<prefix><secret>": look it up
)

// bearerToken reads the Authorization header. The scheme is matched without
// regard to case and several spaces may separate it from the token
// (RFC 7235). Two Authorization headers, another scheme, no token or more
// than one token make the header malformed.
func bearerToken(r *http.Request) (string, credential) {
	vals := r.Header.Values("Authorization")
	if len(vals) == 0 {
		return "", credMissing
	}
	if len(vals) > 1 {
		return "", credMalformed
	}
	v := strings.Trim(vals[0], " \t")
	scheme, rest, ok := strings.Cut(v, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", credMalformed
	}
	token := strings.TrimLeft(rest, " \t")
	if token == "" || strings.ContainsAny(token, " \t") {
		return "", credMalformed
	}
	if !strings.HasPrefix(token, KeyPrefix) {
		return "", credBadFormat
	}
	return token, credKeyShaped
}

// headerErrorBody is the body of the 401 for a missing or malformed
// Authorization header. The document says this one differs from the common
// error envelope: here "error" is the type itself, with a message beside it.
type headerErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// writeAuthError sends the 401 for a request without valid credentials.
func writeAuthError(w http.ResponseWriter, c credential) {
	switch c {
	case credMissing, credMalformed:
		msg := "Missing Authorization header. Send 'Authorization: Bearer YOUR_API_KEY'."
		if c == credMalformed {
			msg = "Malformed Authorization header. Send 'Authorization: Bearer YOUR_API_KEY'."
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="api"`)
		writeJSON(w, http.StatusUnauthorized, headerErrorBody{Error: typeAuthentication, Message: msg})
	case credBadFormat:
		w.Header().Set("WWW-Authenticate", `Bearer realm="api", error="invalid_token"`)
		writeError(w, newErr(http.StatusUnauthorized, typeAuthentication, "",
			"The API key is incorrectly formatted: keys start with '"+KeyPrefix+"'.", "", ""))
	default: // well-formed, but unknown or revoked
		w.Header().Set("WWW-Authenticate", `Bearer realm="api", error="invalid_token"`)
		writeError(w, newErr(http.StatusUnauthorized, typeAuthentication, "",
			"The API key is invalid or has been revoked.", "", ""))
	}
}
