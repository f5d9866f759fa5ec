"""Seed data for two accounts; ids and keys are random per start, content is fixed."""
from datetime import timedelta

from .store import STORE, utcnow

RECORD_STATUSES = ["draft", "in_review", "approved", "rejected", "archived"]


def _workspaces(account_id, specs):
    out = []
    for name, description in specs:
        out.append(STORE.add(account_id, "workspaces", {
            "id": STORE.new_id("ws"), "name": name, "description": description}))
    return out


def _governance_models(account_id, specs):
    for name, description in specs:
        STORE.add(account_id, "governance_models", {
            "id": STORE.new_id("gm"), "name": name, "description": description})


def _records(account_id, count, label, workspaces):
    for n in range(1, count + 1):
        ws = workspaces[n % len(workspaces)]
        STORE.add(account_id, "records", {
            "id": STORE.new_id("rec"),
            "status": RECORD_STATUSES[n % len(RECORD_STATUSES)],
            "service_id": "%s-%05d" % (label, n),
            "data": {
                "title": "%s record %d" % (label, n),
                "amount": round(n * 12.5, 2),
                "currency": "EUR" if n % 2 else "USD",
                "workspace": ws["name"],
                "tags": ["seed", "batch-%d" % (n // 25 + 1)],
                "reviewed": n % 3 == 0,
                "owner": {"team": ["risk", "ops", "finance"][n % 3], "level": n % 4},
            },
        })


def _picklist(account_id, name, options):
    return STORE.add(account_id, "picklists", {
        "id": STORE.new_id("pl"),
        "name": name,
        "options": [{"value": v, "label": l} for v, l in options],
    })


def _taxonomy(account_id, name, description, field_specs):
    taxonomy = {"id": STORE.new_id("tax"), "name": name, "description": description,
                "field_ids": []}
    STORE.add(account_id, "taxonomies", taxonomy)
    for key, fname, ftype, required, picklist in field_specs:
        field = STORE.add(account_id, "fields", {
            "id": STORE.new_id("fld"),
            "taxonomy_id": taxonomy["id"],
            "name": fname,
            "key": key,
            "type": ftype,
            "required": required,
            "picklist_id": picklist["id"] if picklist else None,
        })
        taxonomy["field_ids"].append(field["id"])
    return taxonomy


def _submission(account_id, workspace, taxonomy, rows, age_minutes):
    STORE.add(account_id, "submissions", {
        "id": STORE.new_id("sub"),
        "workspace_id": workspace["id"],
        "taxonomy_id": taxonomy["id"],
        "rows": [{"data": r} for r in rows],
        "row_count": len(rows),
        "status": "received",
        "created_at": utcnow() - timedelta(minutes=age_minutes),
    })


def seed():
    """Create both accounts; returns {"main": key of account 1, "other": key of account 2}."""
    # ---- account 1 -----------------------------------------------------------
    a1 = STORE.add_account("Acme Holdings")
    ws1 = _workspaces(a1.id, [
        ("Main", "Default workspace created at sign-up"),
        ("Finance", "Invoices, payments and vendor data"),
        ("Operations", "Suppliers and logistics"),
        ("Research", "Experimental datasets"),
    ])
    _governance_models(a1.id, [
        ("Vendor risk model", "Scores third-party vendors by risk tier"),
        ("Data retention model", "Retention periods by data category"),
        ("Access review model", None),
    ])
    _records(a1.id, 137, "A", ws1)
    risk = _picklist(a1.id, "Risk tier", [("low", "Low"), ("medium", "Medium"),
                                           ("high", "High")])
    country = _picklist(a1.id, "Country", [("DE", "Germany"), ("FR", "France"),
                                           ("US", "United States")])
    category = _picklist(a1.id, "Product category", [("hw", "Hardware"),
                                                     ("sw", "Software"),
                                                     ("svc", "Services")])
    vendors = _taxonomy(a1.id, "Vendors", "Third-party vendors", [
        ("vendor_name", "Vendor name", "text", True, None),
        ("country", "Country", "picklist", True, country),
        ("risk_tier", "Risk tier", "picklist", False, risk),
        ("annual_spend", "Annual spend", "number", False, None),
    ])
    products = _taxonomy(a1.id, "Products", "Product catalogue", [
        ("sku", "SKU", "text", True, None),
        ("category", "Category", "picklist", True, category),
        ("launched_on", "Launch date", "date", False, None),
    ])
    _taxonomy(a1.id, "Contracts", None, [
        ("contract_ref", "Contract reference", "text", True, None),
        ("signed", "Signed", "boolean", False, None),
    ])
    _submission(a1.id, ws1[0], vendors, [
        {"vendor_name": "Globex", "country": "DE", "risk_tier": "low"},
        {"vendor_name": "Initech", "country": "US", "risk_tier": "high"},
    ], 90)
    _submission(a1.id, ws1[1], vendors, [{"vendor_name": "Umbrella", "country": "FR"}], 60)
    _submission(a1.id, ws1[0], products, [
        {"sku": "HW-001", "category": "hw"}, {"sku": "SW-002", "category": "sw"},
        {"sku": "SV-003", "category": "svc", "launched_on": "2024-03-01"},
    ], 30)
    _, main_key = STORE.create_key(a1.id, "Seed key (main)")

    # ---- account 2 -----------------------------------------------------------
    a2 = STORE.add_account("Blue Lagoon Ltd")
    ws2 = _workspaces(a2.id, [
        ("Main", "Default workspace created at sign-up"),
        ("Compliance", "Audit evidence"),
    ])
    _governance_models(a2.id, [
        ("Supplier model", None),
        ("Privacy model", "Personal data inventory"),
    ])
    _records(a2.id, 12, "B", ws2)
    status = _picklist(a2.id, "Audit status", [("open", "Open"), ("closed", "Closed")])
    audits = _taxonomy(a2.id, "Audits", "Internal audits", [
        ("audit_ref", "Audit reference", "text", True, None),
        ("status", "Status", "picklist", True, status),
    ])
    _submission(a2.id, ws2[1], audits, [{"audit_ref": "AU-1", "status": "open"}], 45)
    _, other_key = STORE.create_key(a2.id, "Seed key (other)")

    return {"main": main_key, "other": other_key}
