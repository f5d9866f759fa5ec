package main

import (
	"net/http"
	"strings"
)

// serveList answers a list request: pagination parameters and the named
// filters are read and validated first, then pick selects the account's
// matching items (under the store lock) and one page is sent.
// An empty filter value means no filter.
func serveList[T any](s *server, w http.ResponseWriter, r *http.Request, acct string,
	filterNames []string, validate func(f map[string]string) *apiErr,
	pick func(a *account, f map[string]string) []T) {
	q := parseQuery(r.URL.RawQuery)
	p, e := parsePagination(q)
	if e != nil {
		writeError(w, e)
		return
	}
	filters := map[string]string{}
	for _, name := range filterNames {
		v, e := q.single(name)
		if e != nil {
			writeError(w, e)
			return
		}
		if v != "" {
			filters[name] = v
		}
	}
	if validate != nil {
		if e := validate(filters); e != nil {
			writeError(w, e)
			return
		}
	}
	var env listEnvelope
	s.store.view(acct, func(a *account) {
		env = paginate(pick(a, filters), p)
	})
	writeJSON(w, http.StatusOK, env)
}

// serveItem answers the retrieval of one resource of the account by id.
func serveItem[T identified](s *server, w http.ResponseWriter, acct, id, kind string, items func(a *account) []T) {
	var (
		item  T
		found bool
	)
	s.store.view(acct, func(a *account) {
		item, found = findByID(items(a), id)
	})
	if !found {
		writeError(w, errNotFound("No such "+kind+".", ""))
		return
	}
	writeJSON(w, http.StatusOK, item)
}

// all returns a pick function that takes the whole collection.
func all[T any](items func(a *account) []T) func(a *account, f map[string]string) []T {
	return func(a *account, _ map[string]string) []T { return items(a) }
}

func workspacesOf(a *account) []Workspace   { return a.workspaces }
func modelsOf(a *account) []GovernanceModel { return a.models }
func recordsOf(a *account) []Record         { return a.records }
func taxonomiesOf(a *account) []Taxonomy    { return a.taxonomies }
func fieldsOf(a *account) []Field           { return a.fields }
func picklistsOf(a *account) []Picklist     { return a.picklists }
func submissionsOf(a *account) []Submission { return a.submissions }

func (s *server) listWorkspaces(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, nil, nil, all(workspacesOf))
}

func (s *server) getWorkspace(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "workspace", workspacesOf)
}

func (s *server) listModels(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, nil, nil, all(modelsOf))
}

func (s *server) getModel(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "governance model", modelsOf)
}

// Records can be filtered by status and by workspace_id.
func (s *server) listRecords(w http.ResponseWriter, r *http.Request, acct string) {
	validate := func(f map[string]string) *apiErr {
		if st, ok := f["status"]; ok && !validRecordStatus(st) {
			return errInvalid("invalid_value", "status", "",
				"'status' must be one of: "+strings.Join(RecordStatuses, ", ")+".")
		}
		return nil
	}
	serveList(s, w, r, acct, []string{"status", "workspace_id"}, validate,
		func(a *account, f map[string]string) []Record {
			return filterSlice(a.records, func(rec Record) bool {
				return matches(f, "status", rec.Status) && matches(f, "workspace_id", rec.WorkspaceID)
			})
		})
}

func (s *server) getRecord(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "record", recordsOf)
}

func (s *server) listTaxonomies(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, nil, nil, all(taxonomiesOf))
}

func (s *server) getTaxonomy(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "taxonomy", taxonomiesOf)
}

// Fields can be filtered by taxonomy_id.
func (s *server) listFields(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, []string{"taxonomy_id"}, nil,
		func(a *account, f map[string]string) []Field {
			return filterSlice(a.fields, func(fd Field) bool { return matches(f, "taxonomy_id", fd.TaxonomyID) })
		})
}

func (s *server) getField(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "field", fieldsOf)
}

func (s *server) listPicklists(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, nil, nil, all(picklistsOf))
}

func (s *server) getPicklist(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "picklist", picklistsOf)
}

// matches reports whether a value passes the filter of that name (absent
// filter: everything passes).
func matches(f map[string]string, name, value string) bool {
	want, ok := f[name]
	return !ok || want == value
}
