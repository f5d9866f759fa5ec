package main

import (
	"log"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
)

const apiPrefix = "/api/v1/"

type server struct {
	store     *Store
	limiter   *limiter
	endpoints map[string]endpoint
}

// endpoint is one collection under /api/v1/: its list and item handlers,
// and optionally creation (POST on the collection) and deletion (DELETE on
// an item).
type endpoint struct {
	list   func(w http.ResponseWriter, r *http.Request, acct string)
	get    func(w http.ResponseWriter, r *http.Request, acct, id string)
	create func(w http.ResponseWriter, r *http.Request, acct string)
	delete func(w http.ResponseWriter, r *http.Request, acct, id string)
}

func newServer(store *Store, lim *limiter) *server {
	s := &server{store: store, limiter: lim}
	s.endpoints = map[string]endpoint{
		"workspaces":        {list: s.listWorkspaces, get: s.getWorkspace},
		"governance_models": {list: s.listModels, get: s.getModel},
		"records":           {list: s.listRecords, get: s.getRecord},
		"taxonomies":        {list: s.listTaxonomies, get: s.getTaxonomy},
		"fields":            {list: s.listFields, get: s.getField},
		"picklists":         {list: s.listPicklists, get: s.getPicklist},
		"submissions":       {list: s.listSubmissions, get: s.getSubmission, create: s.createSubmission},
		"api_keys":          {list: s.listKeys, get: s.getKey, create: s.createKey, delete: s.deleteKey},
	}
	return s
}

// handler is the whole HTTP surface: a ServeMux (which cleans paths and
// redirects, as it always does) in front of one handler that authenticates,
// rate-limits and dispatches.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", recoverer(http.HandlerFunc(s.serveAPI)))
	return mux
}

// recoverer turns a panic in a handler into a 500 api_error.
func recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Printf("panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				writeError(w, errInternal())
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func errNoEndpoint() *apiErr {
	return errNotFound("No such endpoint.", "")
}

func (s *server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, apiPrefix) {
		// Not API v1 (another version, the root, ...): nothing is served here.
		writeError(w, errNotFound("No such endpoint. API v1 paths start with "+apiPrefix+".", ""))
		return
	}

	token, cred := bearerToken(r)
	var acct, keyID string
	ok := false
	if cred == credKeyShaped {
		acct, keyID, ok = s.store.authenticate(token)
	}
	if !ok {
		// No valid credential: the per-IP budget of unauthenticated requests.
		st := s.limiter.take("ip:"+clientIP(r), perIPLimit)
		setRateHeaders(w, st)
		if !st.allowed {
			writeRateLimited(w, st)
		} else {
			writeAuthError(w, cred)
		}
		return
	}

	st := s.limiter.take("key:"+keyID, perKeyLimit)
	setRateHeaders(w, st)
	if !st.allowed {
		writeRateLimited(w, st)
		return
	}
	s.route(w, r, acct)
}

func (s *server) route(w http.ResponseWriter, r *http.Request, acct string) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, apiPrefix), "/")
	if parts[0] == "admin" {
		writeError(w, errForbidden("Admin endpoints are not available to API keys."))
		return
	}
	if len(parts) > 2 || (len(parts) == 2 && parts[1] == "") {
		writeError(w, errNoEndpoint())
		return
	}
	ep, found := s.endpoints[parts[0]]
	if !found {
		writeError(w, errNoEndpoint())
		return
	}
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	if len(parts) == 1 {
		switch {
		case get:
			ep.list(w, r, acct)
		case r.Method == http.MethodPost && ep.create != nil:
			ep.create(w, r, acct)
		default:
			methodNotAllowed(w, ep.create != nil, false)
		}
		return
	}
	id := parts[1]
	switch {
	case get:
		ep.get(w, r, acct, id)
	case r.Method == http.MethodDelete && ep.delete != nil:
		ep.delete(w, r, acct, id)
	default:
		methodNotAllowed(w, false, ep.delete != nil)
	}
}

func methodNotAllowed(w http.ResponseWriter, post, del bool) {
	allow := "GET, HEAD"
	if post {
		allow += ", POST"
	}
	if del {
		allow += ", DELETE"
	}
	w.Header().Set("Allow", allow)
	writeError(w, errMethod(allow))
}
