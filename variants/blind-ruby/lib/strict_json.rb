# frozen_string_literal: true

require 'json'
require 'strscan'

# Strict parsing of request bodies.
#
# Ruby's JSON parser (json 2.6, as shipped by Debian 12) is lenient in a few
# ways that RFC 8259 is not: it accepts /* */ and // comments, and unknown
# escape sequences such as "\x". A request body is therefore first checked
# token by token against the RFC 8259 lexical grammar, and only then handed
# to JSON.parse, which checks the syntax proper.
module StrictJSON
  class Error < StandardError; end

  MAX_NESTING = 512

  WHITESPACE = /[ \t\n\r]+/.freeze
  STRING     = /"(?>[^"\\\x00-\x1f]+|\\["\\\/bfnrt]|\\u\h{4})*"/.freeze
  NUMBER     = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.freeze
  PUNCT      = /[\[\]{}:,]/.freeze
  LITERAL    = /(?:true|false|null)/.freeze

  module_function

  # Returns the parsed document, or raises StrictJSON::Error with a message
  # suitable for the client.
  def parse(text)
    text = text.dup.force_encoding(Encoding::UTF_8)
    raise Error, 'Request body is not valid UTF-8.' unless text.valid_encoding?
    raise Error, 'Request body is not valid JSON.' unless lexically_valid?(text)

    begin
      value = JSON.parse(text, max_nesting: MAX_NESTING, allow_nan: false,
                               create_additions: false)
    rescue JSON::NestingError
      raise Error, "Request body nests deeper than #{MAX_NESTING} levels."
    rescue JSON::ParserError => e
      raise Error, 'Request body contains an unpaired UTF-16 surrogate escape, which is not valid Unicode.' if e.message.include?('surrogate')

      raise Error, 'Request body is not valid JSON.'
    rescue EncodingError, ArgumentError
      raise Error, 'Request body is not valid JSON.'
    end
    check_numbers(value, 0)
    value
  end

  def lexically_valid?(text)
    ss = StringScanner.new(text)
    until ss.eos?
      next if ss.skip(WHITESPACE) || ss.skip(STRING) || ss.skip(PUNCT) ||
              ss.skip(NUMBER) || ss.skip(LITERAL)

      return false
    end
    true
  end

  # Numbers too large for a double (1e400) parse as Infinity, which can be
  # neither stored faithfully nor written back out as JSON.
  def check_numbers(value, depth)
    case value
    when Float
      raise Error, 'Request body contains a number out of range.' unless value.finite?
    when Array
      value.each { |v| check_numbers(v, depth + 1) }
    when Hash
      value.each_value { |v| check_numbers(v, depth + 1) }
    end
  end

  def generate(value)
    JSON.generate(value, max_nesting: false, allow_nan: false)
  end
end
