package main

import (
	"sync"
	"time"
)

// Limits of this deployment that the document leaves open.
const (
	maxKeysPerAccount        = 1000
	maxSubmissionsPerAccount = 10000
	maxRowsPerSubmission     = 1000
	maxBodyBytes             = 4 << 20
	maxKeyNameLength         = 200
)

type apiKey struct {
	id         string
	accountID  string
	name       string
	hash       [32]byte
	createdAt  time.Time
	lastUsedAt *time.Time
}

func (k *apiKey) view() APIKeyView {
	return APIKeyView{ID: k.id, Name: k.name, CreatedAt: Timestamp{k.createdAt}, LastUsedAt: tsPtr(k.lastUsedAt)}
}

// account holds one account's data; every collection keeps creation order,
// which is the order of every list.
type account struct {
	id          string
	name        string
	workspaces  []Workspace
	models      []GovernanceModel
	records     []Record
	taxonomies  []Taxonomy
	fields      []Field
	picklists   []Picklist
	submissions []Submission
	keys        []*apiKey
}

// Store is all state, in memory, behind one mutex.
type Store struct {
	mu       sync.Mutex
	accounts map[string]*account
	byHash   map[[32]byte]*apiKey
}

func newStore() *Store {
	return &Store{accounts: map[string]*account{}, byHash: map[[32]byte]*apiKey{}}
}

// view runs fn with the account's data under the lock. fn must copy what it
// keeps; slices returned from filterSlice are copies.
func (s *Store) view(accountID string, fn func(a *account)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.accounts[accountID])
}

// authenticate looks a token up by its hash and stamps the key's last use.
func (s *Store) authenticate(token string) (accountID, keyID string, ok bool) {
	h := hashKey(token)
	s.mu.Lock()
	defer s.mu.Unlock()
	k, found := s.byHash[h]
	if !found {
		return "", "", false
	}
	now := time.Now()
	if k.lastUsedAt != nil && !now.After(*k.lastUsedAt) {
		now = k.lastUsedAt.Add(time.Microsecond) // strictly forward
	}
	k.lastUsedAt = &now
	return k.accountID, k.id, true
}

// addKey creates a key for the account and returns it with its token.
// It returns ok=false when the account already has the maximum of keys.
func (s *Store) addKey(accountID, name string) (APIKeyCreated, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[accountID]
	if len(a.keys) >= maxKeysPerAccount {
		return APIKeyCreated{}, false
	}
	token := newAPIKeyToken()
	h := hashKey(token)
	for s.byHash[h] != nil { // never happens with 238 bits, but cheap
		token = newAPIKeyToken()
		h = hashKey(token)
	}
	k := &apiKey{id: newUUID(), accountID: accountID, name: name, hash: h, createdAt: time.Now()}
	a.keys = append(a.keys, k)
	s.byHash[h] = k
	return APIKeyCreated{ID: k.id, Name: k.name, Key: token, CreatedAt: Timestamp{k.createdAt}}, true
}

// deleteKey revokes a key of the account; false when there is no such key.
func (s *Store) deleteKey(accountID, keyID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[accountID]
	for i, k := range a.keys {
		if k.id == keyID {
			delete(s.byHash, k.hash)
			a.keys = append(a.keys[:i:i], a.keys[i+1:]...)
			return true
		}
	}
	return false
}
