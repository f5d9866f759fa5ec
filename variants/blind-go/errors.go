package main

import (
	"encoding/json"
	"log"
	"net/http"
)

// errorBody is the common error object of the API document:
// {"error": {"type", "code", "message", "param", "path"}}.
// Every member is always present; code, param and path are null when
// nothing applies.
type errorBody struct {
	Type    string  `json:"type"`
	Code    *string `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
	Path    *string `json:"path"`
}

type errorEnvelope struct {
	Error errorBody `json:"error"`
}

// apiErr is an error on its way to the client: an HTTP status and the body.
type apiErr struct {
	status int
	body   errorBody
}

// Error types of the API document.
const (
	typeInvalidRequest = "invalid_request_error"
	typeAuthentication = "authentication_error"
	typeAuthorization  = "authorization_error"
	typeNotFound       = "not_found_error"
	typeRateLimit      = "rate_limit_error"
	typePlanLimit      = "plan_limit_exceeded"
	typeAPI            = "api_error"
)

func strPtr(s string) *string { return &s }

// optPtr returns nil for "" and a pointer otherwise.
func optPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func newErr(status int, typ, code, message, param, path string) *apiErr {
	return &apiErr{status: status, body: errorBody{
		Type:    typ,
		Code:    optPtr(code),
		Message: message,
		Param:   optPtr(param),
		Path:    optPtr(path),
	}}
}

// errInvalid is a 422 invalid_request_error naming the offending input.
func errInvalid(code, param, path, message string) *apiErr {
	return newErr(http.StatusUnprocessableEntity, typeInvalidRequest, code, message, param, path)
}

// errMissing is the 400 for a genuinely missing required parameter.
func errMissing(param, path, message string) *apiErr {
	return newErr(http.StatusBadRequest, typeInvalidRequest, "missing_param", message, param, path)
}

// errBadBody is the 400 for a body that is not a JSON object.
func errBadBody(code, message string) *apiErr {
	return newErr(http.StatusBadRequest, typeInvalidRequest, code, message, "", "")
}

// errNotFound is a 404 with code null; param names a body/query reference
// that points nowhere, and is null for a missing path resource.
func errNotFound(message, param string) *apiErr {
	return newErr(http.StatusNotFound, typeNotFound, "", message, param, "")
}

func errForbidden(message string) *apiErr {
	return newErr(http.StatusForbidden, typeAuthorization, "insufficient_permissions", message, "", "")
}

func errPlanLimit(param, message string) *apiErr {
	return newErr(http.StatusUnprocessableEntity, typePlanLimit, "limit_exceeded", message, param, "")
}

func errMethod(allow string) *apiErr {
	return newErr(http.StatusMethodNotAllowed, typeInvalidRequest, "method_not_allowed",
		"This endpoint does not support this HTTP method. Allowed: "+allow+".", "", "")
}

func errInternal() *apiErr {
	return newErr(http.StatusInternalServerError, typeAPI, "", "An unexpected error occurred.", "", "")
}

// writeJSON encodes v and sends it with the given status. The body is
// marshalled first so that an encoding failure can still become a clean 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf, err := json.Marshal(v)
	if err != nil {
		log.Printf("encoding response: %v", err)
		status = http.StatusInternalServerError
		buf, _ = json.Marshal(errorEnvelope{Error: errInternal().body})
	}
	buf = append(buf, '\n')
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(buf)
}

func writeError(w http.ResponseWriter, e *apiErr) {
	writeJSON(w, e.status, errorEnvelope{Error: e.body})
}
