# frozen_string_literal: true

require 'securerandom'
require 'digest'

# In-memory state of the service: accounts, their resources and their API
# keys. Every read and write goes through the one mutex handed in, so the
# store can be shared by all of Puma's threads.
#
# Resources are kept as frozen Hashes of their public fields, per collection
# and per account, in creation order (which is also the order of every list).
class Store
  COLLECTIONS = %i[workspaces governance_models records taxonomies fields picklists submissions].freeze

  ID_PREFIXES = {
    workspaces: 'wsp', governance_models: 'gm', records: 'rec', taxonomies: 'tax',
    fields: 'fld', picklists: 'pkl', submissions: 'sub', api_keys: 'key'
  }.freeze

  RECORD_STATUSES = %w[draft in_review approved rejected archived].freeze

  KEY_PREFIX = 'sk_live_'
  KEY_SECRET_LENGTH = 40
  MAX_KEYS_PER_ACCOUNT = 1000

  Account = Struct.new(:id, :name, keyword_init: true)

  ApiKey = Struct.new(:id, :account_id, :name, :digest, :created_at, :last_used_at,
                      keyword_init: true) do
    def to_public
      {
        'id' => id,
        'name' => name,
        'created_at' => Store.timestamp(created_at),
        'last_used_at' => last_used_at && Store.timestamp(last_used_at)
      }
    end
  end

  class LimitReached < StandardError; end

  def self.timestamp(time)
    time.utc.strftime('%Y-%m-%dT%H:%M:%S.%LZ')
  end

  def self.digest(token)
    Digest::SHA256.hexdigest(token)
  end

  def initialize(lock)
    @lock = lock
    @accounts = {}
    @lists = Hash.new { |h, collection| h[collection] = Hash.new { |hh, acct| hh[acct] = [] } }
    @index = Hash.new { |h, collection| h[collection] = {} }   # collection => id => [account_id, resource]
    @keys = {}                                                   # key id => ApiKey
    @keys_by_digest = {}                                         # SHA-256 of the full key => ApiKey
    @key_order = Hash.new { |h, acct| h[acct] = [] }             # account id => [key id, ...]
    @rows = {}                                                   # submission id => rows
  end

  def self.new_id(collection)
    "#{ID_PREFIXES.fetch(collection)}_#{SecureRandom.hex(8)}"
  end

  # ---- accounts and resources -------------------------------------------

  def add_account(name)
    account = Account.new(id: "acct_#{SecureRandom.hex(6)}", name: name)
    @lock.synchronize { @accounts[account.id] = account }
    account
  end

  # Adds a resource; +attrs+ are its public fields without the id.
  def add(collection, account_id, attrs)
    resource = { 'id' => Store.new_id(collection) }.merge(attrs)
    deep_freeze(resource)
    @lock.synchronize do
      @lists[collection][account_id] << resource
      @index[collection][resource['id']] = [account_id, resource]
    end
    resource
  end

  # Snapshot of an account's collection, in creation order.
  def list(collection, account_id)
    @lock.synchronize { @lists[collection][account_id].dup }
  end

  # The resource, or nil when it does not exist or belongs to another account.
  def find(collection, account_id, id)
    @lock.synchronize do
      owner, resource = @index[collection][id]
      owner == account_id ? resource : nil
    end
  end

  # Adds a submission with its rows. The rows are stored but not returned by
  # the API (only their count is).
  def add_submission(account_id, workspace_id:, taxonomy_id:, rows:, now: Time.now)
    attrs = {
      'workspace_id' => workspace_id,
      'taxonomy_id' => taxonomy_id,
      'row_count' => rows.length,
      'created_at' => Store.timestamp(now)
    }
    resource = add(:submissions, account_id, attrs)
    @lock.synchronize { @rows[resource['id']] = rows }
    resource
  end

  # ---- API keys -----------------------------------------------------------

  # Creates a key. Returns [public record, full key]. Neither the key nor any
  # part of it is kept: only its SHA-256 digest is, to authenticate with.
  def create_key(account_id, name, now: Time.now)
    secret = SecureRandom.alphanumeric(KEY_SECRET_LENGTH)
    full = "#{KEY_PREFIX}#{secret}"
    key = ApiKey.new(id: Store.new_id(:api_keys), account_id: account_id, name: name.dup.freeze,
                     digest: Store.digest(full),
                     created_at: now, last_used_at: nil)
    @lock.synchronize do
      raise LimitReached if @key_order[account_id].length >= MAX_KEYS_PER_ACCOUNT

      @keys[key.id] = key
      @keys_by_digest[key.digest] = key
      @key_order[account_id] << key.id
      [key.to_public, full]
    end
  end

  # Looks the token up and, when it is a live key, records the use.
  # Returns [account_id, key_id] or nil.
  def authenticate(token, now: Time.now)
    digest = Store.digest(token)
    @lock.synchronize do
      key = @keys_by_digest[digest]
      return nil unless key

      # Keep last-use strictly increasing even for uses within one millisecond.
      last = key.last_used_at
      key.last_used_at = last && now <= last ? last + 0.001 : now
      [key.account_id, key.id]
    end
  end

  def list_keys(account_id)
    @lock.synchronize { @key_order[account_id].map { |id| @keys[id].to_public } }
  end

  def find_key(account_id, id)
    @lock.synchronize do
      key = @keys[id]
      key && key.account_id == account_id ? key.to_public : nil
    end
  end

  # Revokes (deletes) a key; true when it existed in the account.
  def delete_key(account_id, id)
    @lock.synchronize do
      key = @keys[id]
      return false unless key && key.account_id == account_id

      @keys.delete(id)
      @keys_by_digest.delete(key.digest)
      @key_order[account_id].delete(id)
      true
    end
  end

  private

  def deep_freeze(value)
    case value
    when Hash then value.each_value { |v| deep_freeze(v) }
    when Array then value.each { |v| deep_freeze(v) }
    end
    value.freeze
  end
end
