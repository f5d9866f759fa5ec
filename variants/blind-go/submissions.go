package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Required body members of a submission, in the order they are checked.
var submissionRequired = []string{"workspace_id", "taxonomy_id", "rows"}

// Submissions can be filtered by workspace_id and taxonomy_id.
func (s *server) listSubmissions(w http.ResponseWriter, r *http.Request, acct string) {
	serveList(s, w, r, acct, []string{"workspace_id", "taxonomy_id"}, nil,
		func(a *account, f map[string]string) []Submission {
			return filterSlice(a.submissions, func(sub Submission) bool {
				return matches(f, "workspace_id", sub.WorkspaceID) && matches(f, "taxonomy_id", sub.TaxonomyID)
			})
		})
}

func (s *server) getSubmission(w http.ResponseWriter, r *http.Request, acct, id string) {
	serveItem(s, w, acct, id, "submission", submissionsOf)
}

// POST /api/v1/submissions?workspace_id=W
// {"workspace_id": W, "taxonomy_id": T, "rows": [{"data": {...}}, ...]} -> 201.
func (s *server) createSubmission(w http.ResponseWriter, r *http.Request, acct string) {
	wsParam, e := parseQuery(r.URL.RawQuery).single("workspace_id")
	if e != nil {
		writeError(w, e)
		return
	}
	if wsParam == "" {
		writeError(w, errMissing("workspace_id", "", "The query parameter 'workspace_id' is required."))
		return
	}
	obj, e := readJSONObject(w, r)
	if e != nil {
		writeError(w, e)
		return
	}
	for _, name := range submissionRequired {
		if _, ok := obj[name]; !ok {
			writeError(w, errMissing(name, name, "The parameter '"+name+"' is required."))
			return
		}
	}
	wsID, e := nonEmptyString(obj, "workspace_id")
	if e != nil {
		writeError(w, e)
		return
	}
	taxID, e := nonEmptyString(obj, "taxonomy_id")
	if e != nil {
		writeError(w, e)
		return
	}
	rows, e := parseRows(obj["rows"])
	if e != nil {
		writeError(w, e)
		return
	}
	if wsID != wsParam {
		writeError(w, errInvalid("workspace_mismatch", "workspace_id", "workspace_id",
			"'workspace_id' in the body must equal the 'workspace_id' query parameter."))
		return
	}

	var sub Submission
	s.store.view(acct, func(a *account) {
		if _, ok := findByID(a.workspaces, wsID); !ok {
			e = errNotFound("No such workspace.", "workspace_id")
			return
		}
		if _, ok := findByID(a.taxonomies, taxID); !ok {
			e = errNotFound("No such taxonomy.", "taxonomy_id")
			return
		}
		if len(a.submissions) >= maxSubmissionsPerAccount {
			e = errPlanLimit("submissions", "The account has reached its maximum number of submissions.")
			return
		}
		sub = Submission{
			ID:          newUUID(),
			WorkspaceID: wsID,
			TaxonomyID:  taxID,
			RowCount:    len(rows),
			Rows:        rows,
			CreatedAt:   Timestamp{time.Now()},
		}
		a.submissions = append(a.submissions, sub)
	})
	if e != nil {
		writeError(w, e)
		return
	}
	w.Header().Set("Location", apiPrefix+"submissions/"+sub.ID)
	writeJSON(w, http.StatusCreated, sub)
}

func nonEmptyString(obj map[string]json.RawMessage, name string) (string, *apiErr) {
	v, e := stringMember(obj, name)
	if e != nil {
		return "", e
	}
	if v == "" {
		return "", errInvalid("invalid_value", name, name, "'"+name+"' must not be empty.")
	}
	return v, nil
}

// parseRows validates rows: an array (at most maxRowsPerSubmission) of
// objects, each with a member "data" that is an object (any object).
// param is always "rows"; path locates the fault, e.g. "rows[2].data".
func parseRows(raw json.RawMessage) ([]SubmissionRow, *apiErr) {
	if k := jsonKind(raw); k != "array" {
		return nil, errInvalid("invalid_type", "rows", "rows", "'rows' must be an array of objects, not "+k+".")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errInvalid("invalid_type", "rows", "rows", "'rows' must be an array of objects.")
	}
	if len(items) > maxRowsPerSubmission {
		return nil, errPlanLimit("rows", "A submission can hold at most "+strconv.Itoa(maxRowsPerSubmission)+" rows.")
	}
	rows := make([]SubmissionRow, 0, len(items))
	for i, item := range items {
		at := "rows[" + strconv.Itoa(i) + "]"
		if k := jsonKind(item); k != "object" {
			return nil, errInvalid("invalid_type", "rows", at, "Each row must be an object; "+at+" is "+k+".")
		}
		var row map[string]json.RawMessage
		if err := json.Unmarshal(item, &row); err != nil {
			return nil, errInvalid("invalid_type", "rows", at, "Each row must be an object.")
		}
		data, ok := row["data"]
		if !ok {
			return nil, errMissing("rows", at+".data", at+" has no member 'data'.")
		}
		if k := jsonKind(data); k != "object" {
			return nil, errInvalid("invalid_type", "rows", at+".data", at+".data must be an object, not "+k+".")
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return nil, errInvalid("invalid_type", "rows", at+".data", at+".data must be an object.")
		}
		rows = append(rows, SubmissionRow{Data: buf.Bytes()})
	}
	return rows, nil
}
