package main

import "encoding/json"

// Workspace: a top-level container that groups submissions and records.
type Workspace struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// GovernanceModel: a named model available to the account.
type GovernanceModel struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description"` // nullable, never omitted
}

// Record: an individual data record with a status and a free-form payload.
type Record struct {
	ID          string          `json:"id"`
	Status      string          `json:"status"`
	ServiceID   string          `json:"service_id"`
	WorkspaceID string          `json:"workspace_id"`
	Data        json.RawMessage `json:"data"`
}

// RecordStatuses is the set of record states this implementation uses.
// The API exposes no transitions between them.
var RecordStatuses = []string{"draft", "in_review", "approved", "rejected", "archived"}

func validRecordStatus(s string) bool {
	for _, v := range RecordStatuses {
		if v == s {
			return true
		}
	}
	return false
}

// Taxonomy: a schema that submissions are created against; it lists its fields.
type Taxonomy struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	FieldIDs    []string `json:"field_ids"`
}

// Field: one field of a taxonomy; a field of type "picklist" names its picklist.
type Field struct {
	ID         string  `json:"id"`
	TaxonomyID string  `json:"taxonomy_id"`
	Name       string  `json:"name"`
	Key        string  `json:"key"`
	Type       string  `json:"type"`
	Required   bool    `json:"required"`
	PicklistID *string `json:"picklist_id"`
}

// Picklist: a named list of allowed values.
type Picklist struct {
	ID      string           `json:"id"`
	Name    string           `json:"name"`
	Options []PicklistOption `json:"options"`
}

type PicklistOption struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Submission: a batch of rows created against a taxonomy inside a workspace.
// It has no state (the document says only records expose one).
type Submission struct {
	ID          string          `json:"id"`
	WorkspaceID string          `json:"workspace_id"`
	TaxonomyID  string          `json:"taxonomy_id"`
	RowCount    int             `json:"row_count"`
	Rows        []SubmissionRow `json:"rows"`
	CreatedAt   Timestamp       `json:"created_at"`
}

type SubmissionRow struct {
	Data json.RawMessage `json:"data"`
}

// APIKeyView is an API key as listed and retrieved: never the secret.
type APIKeyView struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  Timestamp  `json:"created_at"`
	LastUsedAt *Timestamp `json:"last_used_at"` // null until first use
}

// APIKeyCreated is the creation response, the one place the key appears.
type APIKeyCreated struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Key        string     `json:"key"`
	CreatedAt  Timestamp  `json:"created_at"`
	LastUsedAt *Timestamp `json:"last_used_at"`
}

func (w Workspace) getID() string       { return w.ID }
func (g GovernanceModel) getID() string { return g.ID }
func (r Record) getID() string          { return r.ID }
func (t Taxonomy) getID() string        { return t.ID }
func (f Field) getID() string           { return f.ID }
func (p Picklist) getID() string        { return p.ID }
func (s Submission) getID() string      { return s.ID }

type identified interface{ getID() string }

func findByID[T identified](items []T, id string) (T, bool) {
	for _, it := range items {
		if it.getID() == id {
			return it, true
		}
	}
	var zero T
	return zero, false
}

// filterSlice returns the items for which keep is true, in order, as a new slice.
func filterSlice[T any](items []T, keep func(T) bool) []T {
	out := make([]T, 0, len(items))
	for _, it := range items {
		if keep(it) {
			out = append(out, it)
		}
	}
	return out
}
