package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"
)

// readJSONObject reads a request body that must be one JSON object. An empty
// body counts as an empty object, so that missing members are reported as
// missing parameters. The Content-Type of the request is not enforced.
func readJSONObject(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, *apiErr) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, newErr(http.StatusRequestEntityTooLarge, typeInvalidRequest, "body_too_large",
				fmt.Sprintf("The request body must not exceed %d bytes.", maxBodyBytes), "", "")
		}
		return nil, errBadBody("invalid_body", "The request body could not be read.")
	}
	body = bytes.Trim(body, " \t\r\n")
	if len(body) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	if !utf8.Valid(body) || !json.Valid(body) {
		return nil, errBadBody("invalid_json", "The request body is not valid JSON.")
	}
	if body[0] != '{' {
		return nil, errBadBody("invalid_body", "The request body must be a JSON object.")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, errBadBody("invalid_json", "The request body is not valid JSON.")
	}
	return obj, nil
}

// jsonKind names the JSON type of a raw value.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	default:
		return "number"
	}
}

// stringMember reads a required, non-empty string member of a body object.
func stringMember(obj map[string]json.RawMessage, name string) (string, *apiErr) {
	raw, ok := obj[name]
	if !ok {
		return "", errMissing(name, name, "The parameter '"+name+"' is required.")
	}
	if k := jsonKind(raw); k != "string" {
		return "", errInvalid("invalid_type", name, name, "'"+name+"' must be a string, not "+k+".")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errInvalid("invalid_type", name, name, "'"+name+"' must be a string.")
	}
	return s, nil
}
