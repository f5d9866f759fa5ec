package main

import (
	"net/http"
	"strings"
	"unicode/utf8"
)

// POST /api/v1/api_keys {"name": "..."} -> 201 with the key, shown this once.
func (s *server) createKey(w http.ResponseWriter, r *http.Request, acct string) {
	obj, e := readJSONObject(w, r)
	if e != nil {
		writeError(w, e)
		return
	}
	name, e := stringMember(obj, "name")
	if e != nil {
		writeError(w, e)
		return
	}
	if strings.TrimSpace(name) == "" {
		writeError(w, errInvalid("invalid_value", "name", "name", "'name' must not be empty."))
		return
	}
	if utf8.RuneCountInString(name) > maxKeyNameLength {
		writeError(w, errInvalid("too_long", "name", "name", "'name' must be at most 200 characters."))
		return
	}
	created, ok := s.store.addKey(acct, name)
	if !ok {
		writeError(w, errPlanLimit("api_keys", "The account has reached its maximum number of API keys."))
		return
	}
	h := w.Header()
	h.Set("Location", apiPrefix+"api_keys/"+created.ID)
	h.Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, created)
}

// GET /api/v1/api_keys: name and last use of each key, never the secret.
func (s *server) listKeys(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, nil, nil, func(a *account, _ map[string]string) []APIKeyView {
		out := make([]APIKeyView, 0, len(a.keys))
		for _, k := range a.keys {
			out = append(out, k.view())
		}
		return out
	})
}

func (s *server) getKey(w http.ResponseWriter, r *http.Request, acct, id string) {
	var (
		v     APIKeyView
		found bool
	)
	s.store.view(acct, func(a *account) {
		for _, k := range a.keys {
			if k.id == id {
				v, found = k.view(), true
				return
			}
		}
	})
	if !found {
		writeError(w, errNotFound("No such API key.", ""))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// DELETE /api/v1/api_keys/{id}: revokes the key at once; 204, no body.
func (s *server) deleteKey(w http.ResponseWriter, r *http.Request, acct, id string) {
	if !s.store.deleteKey(acct, id) {
		writeError(w, errNotFound("No such API key.", ""))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
