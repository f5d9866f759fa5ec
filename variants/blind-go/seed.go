package main

import (
	"encoding/json"
	"fmt"
	"time"
)

// seedSpec describes one seeded account.
type seedSpec struct {
	name       string
	keyName    string
	workspaces [][2]string    // name, description
	models     [][2]string    // name, description ("" = null)
	records    int            // how many records
	taxonomies []seedTaxonomy // with their fields
	picklists  []seedPicklist // referenced by fields
	subs       [][3]int       // workspace index, taxonomy index, rows
}

type seedTaxonomy struct {
	name, description string
	fields            []seedField
}

type seedField struct {
	name, key, typ string
	required       bool
	picklist       int // index into picklists, -1 = none
}

type seedPicklist struct {
	name    string
	options []string
}

var seedMain = seedSpec{
	name:    "Acme Corporation",
	keyName: "Seed key (main)",
	workspaces: [][2]string{
		{"Main", "Default workspace created at sign-up."},
		{"Procurement", "Supplier onboarding and purchasing data."},
		{"Product Catalogue", "Product master data."},
		{"Finance", "Cost centres and budgets."},
		{"Archive", ""},
	},
	models: [][2]string{
		{"Standard review", "Every record is reviewed by one data steward."},
		{"Four-eyes principle", "Two independent approvals before a record is approved."},
		{"Self-service", ""},
		{"Regulated data", "Changes require approval by the compliance team."},
	},
	records: 137,
	picklists: []seedPicklist{
		{"Countries", []string{"DE", "FR", "GB", "NL", "US"}},
		{"Currencies", []string{"EUR", "GBP", "USD"}},
		{"Product categories", []string{"Hardware", "Software", "Services", "Consumables"}},
		{"Risk levels", []string{"low", "medium", "high"}},
	},
	taxonomies: []seedTaxonomy{
		{"Supplier", "Companies that supply goods or services.", []seedField{
			{"Legal name", "legal_name", "string", true, -1},
			{"Country", "country", "picklist", true, 0},
			{"Risk level", "risk_level", "picklist", false, 3},
			{"VAT number", "vat_number", "string", false, -1},
		}},
		{"Product", "Items that can be bought or sold.", []seedField{
			{"Product name", "name", "string", true, -1},
			{"Category", "category", "picklist", true, 2},
			{"Unit price", "unit_price", "number", false, -1},
			{"Currency", "currency", "picklist", false, 1},
		}},
		{"Cost centre", "Organisational units that carry costs.", []seedField{
			{"Code", "code", "string", true, -1},
			{"Budget", "budget", "number", false, -1},
			{"Active", "active", "boolean", false, -1},
		}},
	},
	subs: [][3]int{{0, 0, 3}, {1, 0, 2}, {2, 1, 4}, {0, 1, 1}, {3, 2, 2}},
}

var seedOther = seedSpec{
	name:    "Globex Inc.",
	keyName: "Seed key (other)",
	workspaces: [][2]string{
		{"Main", "Default workspace created at sign-up."},
		{"Sandbox", "Experiments."},
	},
	models: [][2]string{
		{"Standard review", "Every record is reviewed by one data steward."},
		{"Lightweight", ""},
	},
	records: 12,
	picklists: []seedPicklist{
		{"Regions", []string{"EMEA", "AMER", "APAC"}},
	},
	taxonomies: []seedTaxonomy{
		{"Customer", "Customer master data.", []seedField{
			{"Customer name", "name", "string", true, -1},
			{"Region", "region", "picklist", true, 0},
		}},
	},
	subs: [][3]int{{0, 0, 2}, {1, 0, 1}},
}

var (
	seedCategories = []string{"Hardware", "Software", "Services", "Consumables"}
	seedCountries  = []string{"DE", "FR", "GB", "NL", "US"}
)

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// seed creates an account from spec and returns the account's one key.
func (s *Store) seed(spec seedSpec) (token string) {
	a := &account{id: newUUID(), name: spec.name}
	for _, w := range spec.workspaces {
		a.workspaces = append(a.workspaces, Workspace{ID: newUUID(), Name: w[0], Description: w[1]})
	}
	for _, m := range spec.models {
		a.models = append(a.models, GovernanceModel{ID: newUUID(), Name: m[0], Description: optPtr(m[1])})
	}
	var picklistIDs []string
	for _, p := range spec.picklists {
		pl := Picklist{ID: newUUID(), Name: p.name, Options: []PicklistOption{}}
		for _, o := range p.options {
			pl.Options = append(pl.Options, PicklistOption{Value: o, Label: o})
		}
		a.picklists = append(a.picklists, pl)
		picklistIDs = append(picklistIDs, pl.ID)
	}
	for _, t := range spec.taxonomies {
		tx := Taxonomy{ID: newUUID(), Name: t.name, Description: t.description, FieldIDs: []string{}}
		for _, f := range t.fields {
			fd := Field{ID: newUUID(), TaxonomyID: tx.ID, Name: f.name, Key: f.key, Type: f.typ, Required: f.required}
			if f.picklist >= 0 {
				fd.PicklistID = strPtr(picklistIDs[f.picklist])
			}
			a.fields = append(a.fields, fd)
			tx.FieldIDs = append(tx.FieldIDs, fd.ID)
		}
		a.taxonomies = append(a.taxonomies, tx)
	}
	used := map[string]bool{}
	for i := 0; i < spec.records; i++ {
		sid := newServiceID()
		for used[sid] {
			sid = newServiceID()
		}
		used[sid] = true
		data := map[string]any{
			"title":    fmt.Sprintf("%s record %d", spec.name, i+1),
			"category": seedCategories[i%len(seedCategories)],
			"country":  seedCountries[i%len(seedCountries)],
			"amount":   float64((i*7919)%100000) / 100,
			"tags":     []string{fmt.Sprintf("batch-%d", i/25+1)},
			"attributes": map[string]any{
				"sequence": i + 1,
				"verified": i%3 == 0,
			},
		}
		if len(a.taxonomies) > 0 {
			data["taxonomy_id"] = a.taxonomies[i%len(a.taxonomies)].ID
		}
		a.records = append(a.records, Record{
			ID:          newUUID(),
			Status:      RecordStatuses[i%len(RecordStatuses)],
			ServiceID:   sid,
			WorkspaceID: a.workspaces[i%len(a.workspaces)].ID,
			Data:        mustJSON(data),
		})
	}
	start := time.Now().Add(-time.Duration(len(spec.subs)) * time.Hour)
	for i, sub := range spec.subs {
		rows := make([]SubmissionRow, 0, sub[2])
		for r := 0; r < sub[2]; r++ {
			rows = append(rows, SubmissionRow{Data: mustJSON(map[string]any{"row": r + 1, "note": fmt.Sprintf("seeded row %d", r+1)})})
		}
		a.submissions = append(a.submissions, Submission{
			ID:          newUUID(),
			WorkspaceID: a.workspaces[sub[0]].ID,
			TaxonomyID:  a.taxonomies[sub[1]].ID,
			RowCount:    len(rows),
			Rows:        rows,
			CreatedAt:   Timestamp{start.Add(time.Duration(i) * time.Hour)},
		})
	}
	s.mu.Lock()
	s.accounts[a.id] = a
	s.mu.Unlock()
	created, _ := s.addKey(a.id, spec.keyName)
	return created.Key
}
