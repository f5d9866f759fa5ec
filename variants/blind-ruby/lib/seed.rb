# frozen_string_literal: true

require_relative 'store'

# Demonstration data: two accounts, each with workspaces, governance models,
# taxonomies with fields and picklists, records (more than one page at the
# default page size) and a few submissions. Content is fixed; ids and keys
# are random on every start.
module Seed
  ACCOUNTS = [
    {
      name: 'Northwind Analytics',
      key_name: 'Production integration',
      workspaces: [
        ['Main', 'Default workspace created at sign-up.'],
        ['Finance', 'Budgets, forecasts and month-end close data.'],
        ['Operations', 'Warehouse, logistics and supplier records.'],
        ['Research', 'Experimental datasets under review.'],
        ['Compliance', '']
      ],
      governance_models: [
        ['Standard data stewardship', 'Owner approval for every change; quarterly review.'],
        ['Regulated (SOX)', 'Two-person review and a full audit trail for financial data.'],
        ['Open research', nil],
        ['GDPR personal data', 'Personal data handled under Article 6 lawful bases with retention limits.'],
        ['Lightweight', 'Self-service changes with weekly spot checks.']
      ],
      taxonomies: [
        ['Product catalogue', 'Products, SKUs and their classification.',
         [%w[sku SKU string], %w[name Name string], %w[category Category picklist], %w[price Price number],
          %w[launched_on Launch date date]]],
        ['Supplier register', 'Approved suppliers and their risk rating.',
         [%w[supplier_name Supplier string], %w[country Country picklist], %w[risk Risk rating picklist],
          %w[active Active boolean]]],
        ['Cost centres', 'Finance cost-centre hierarchy.',
         [%w[code Code string], %w[label Label string], %w[parent_code Parent code string]]]
      ],
      picklists: [
        ['Product categories', %w[Hardware Software Services Accessories]],
        ['Countries', %w[Germany France Spain Italy Netherlands Poland]],
        ['Risk ratings', %w[Low Medium High Critical]]
      ],
      record_count: 250,
      submissions: [[0, 0, 3], [1, 2, 5], [2, 1, 2], [0, 0, 1]]
    },
    {
      name: 'Contoso Health',
      key_name: 'Data warehouse sync',
      workspaces: [
        ['Main', 'Default workspace created at sign-up.'],
        ['Clinical trials', 'Trial sites, cohorts and outcomes.'],
        ['Billing', 'Claims and invoicing data.']
      ],
      governance_models: [
        ['HIPAA', 'Protected health information: minimum necessary access, audited.'],
        ['Internal', nil],
        ['Research ethics board', 'Changes approved by the ethics board before release.']
      ],
      taxonomies: [
        ['Trial sites', 'Sites participating in clinical trials.',
         [%w[site_code Site code string], %w[city City string], %w[phase Phase picklist]]],
        ['Claim lines', 'Individual lines of insurance claims.',
         [%w[claim_no Claim number string], %w[amount Amount number], %w[status Claim status picklist]]]
      ],
      picklists: [
        ['Trial phases', ['Phase I', 'Phase II', 'Phase III', 'Phase IV']],
        ['Claim statuses', %w[Submitted Approved Denied Paid]]
      ],
      record_count: 130,
      submissions: [[1, 0, 4], [2, 1, 2]]
    }
  ].freeze

  OWNERS = ['Ana Souza', 'Ben Carter', 'Chen Wei', 'Dana Kowalski', 'Elif Yilmaz', 'Farid Haddad'].freeze
  CLASSIFICATIONS = %w[public internal confidential restricted].freeze
  SUBJECTS = ['Quarterly forecast', 'Supplier audit', 'Price list', 'Inventory snapshot', 'Customer segment',
              'Contract summary', 'Risk assessment', 'Site report', 'Data quality check', 'Retention review'].freeze

  module_function

  # Seeds the store; returns the full API key of each account, in order.
  def run(store)
    base = Time.now - (30 * 86_400)
    ACCOUNTS.each_with_index.map do |spec, account_index|
      clock = base + account_index
      tick = -> { clock += 37; clock }
      account = store.add_account(spec[:name])
      seed_account(store, account.id, spec, tick)
      _record, full_key = store.create_key(account.id, spec[:key_name], now: tick.call)
      full_key
    end
  end

  def stamp(tick)
    Store.timestamp(tick.call)
  end

  def seed_account(store, acct, spec, tick)
    workspaces = spec[:workspaces].map do |name, description|
      store.add(:workspaces, acct, 'name' => name, 'description' => description, 'created_at' => stamp(tick))
    end

    spec[:governance_models].each do |name, description|
      store.add(:governance_models, acct, 'name' => name, 'description' => description, 'created_at' => stamp(tick))
    end

    picklists = spec[:picklists].map do |name, labels|
      options = labels.map { |label| { 'value' => label.downcase.tr(' ', '_'), 'label' => label } }
      store.add(:picklists, acct, 'name' => name, 'options' => options, 'created_at' => stamp(tick))
    end

    picklist_cursor = 0
    taxonomies = spec[:taxonomies].map do |name, description, fields|
      taxonomy = store.add(:taxonomies, acct, 'name' => name, 'description' => description,
                                              'field_count' => fields.length, 'created_at' => stamp(tick))
      fields.each_with_index do |(key, label, type), position|
        picklist = nil
        if type == 'picklist'
          picklist = picklists[picklist_cursor % picklists.length]
          picklist_cursor += 1
        end
        store.add(:fields, acct, 'taxonomy_id' => taxonomy['id'], 'key' => key, 'name' => label,
                                 'data_type' => type, 'required' => position.zero?,
                                 'picklist_id' => picklist && picklist['id'], 'position' => position + 1,
                                 'created_at' => stamp(tick))
      end
      taxonomy
    end

    service_base = 10_000 * (ACCOUNTS.index(spec) + 1)
    spec[:record_count].times do |i|
      workspace = workspaces[i % workspaces.length]
      created = stamp(tick)
      store.add(:records, acct,
                'service_id' => "R-#{service_base + i + 1}",
                'status' => Store::RECORD_STATUSES[(i * 7 + i / 5) % Store::RECORD_STATUSES.length],
                'workspace_id' => workspace['id'],
                'data' => {
                  'title' => "#{SUBJECTS[i % SUBJECTS.length]} ##{i + 1}",
                  'owner' => OWNERS[(i * 5) % OWNERS.length],
                  'classification' => CLASSIFICATIONS[i % CLASSIFICATIONS.length],
                  'score' => ((i * 37) % 100) / 10.0,
                  'tags' => [SUBJECTS[(i + 3) % SUBJECTS.length].downcase.tr(' ', '-'), "batch-#{i / 25 + 1}"],
                  'reviewed' => i.even?
                },
                'created_at' => created)
    end

    spec[:submissions].each do |ws_index, tax_index, row_count|
      workspace = workspaces[ws_index]
      taxonomy = taxonomies[tax_index]
      rows = Array.new(row_count) do |r|
        { 'data' => { 'line' => r + 1, 'note' => "Imported row #{r + 1}", 'source' => 'seed' } }
      end
      store.add_submission(acct, workspace_id: workspace['id'], taxonomy_id: taxonomy['id'], rows: rows,
                                 now: tick.call)
    end
  end
end
