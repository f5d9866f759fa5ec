package main

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
)

// query is a parsed query string. Unlike url.Values it remembers which
// parameters had a value that is not valid URL encoding, so that such a
// value is reported as invalid instead of being silently dropped.
type query struct {
	vals map[string][]string
	bad  map[string]bool
}

func parseQuery(raw string) query {
	q := query{vals: map[string][]string{}, bad: map[string]bool{}}
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			continue // a name we cannot read is a name we do not know
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			q.bad[key] = true
			continue
		}
		q.vals[key] = append(q.vals[key], val)
	}
	return q
}

// single returns the one value of a parameter. An absent parameter and an
// empty value both give "" (use the default). A parameter given more than
// once, or badly encoded, is a 422 naming it.
func (q query) single(name string) (string, *apiErr) {
	if q.bad[name] {
		return "", errInvalid("invalid_value", name, "", "The value of '"+name+"' is not valid URL encoding.")
	}
	vs := q.vals[name]
	switch len(vs) {
	case 0:
		return "", nil
	case 1:
		return vs[0], nil
	default:
		return "", errInvalid("invalid_value", name, "", "The parameter '"+name+"' must be given at most once.")
	}
}

// Pagination bounds of the document.
const (
	defaultPage  = 1
	defaultLimit = 100
	maxLimit     = 10000
)

type pageParams struct {
	page, limit int64
}

// intParam reads an integer parameter in [min, max] (max 0 = no upper
// bound). Decimal digits with an optional sign only, as strconv.ParseInt
// reads them; "" means the default.
func intParam(q query, name string, def, min, max int64) (int64, *apiErr) {
	raw, e := q.single(name)
	if e != nil {
		return 0, e
	}
	if raw == "" {
		return def, nil
	}
	rangeMsg := "'" + name + "' must be an integer of at least " + strconv.FormatInt(min, 10)
	if max > 0 {
		rangeMsg = "'" + name + "' must be an integer from " + strconv.FormatInt(min, 10) + " to " + strconv.FormatInt(max, 10)
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, errInvalid("out_of_range", name, "", rangeMsg+"; this value is too large.")
		}
		return 0, errInvalid("invalid_integer", name, "", "'"+name+"' must be an integer.")
	}
	if n < min || (max > 0 && n > max) {
		return 0, errInvalid("out_of_range", name, "", rangeMsg+".")
	}
	return n, nil
}

func parsePagination(q query) (pageParams, *apiErr) {
	page, e := intParam(q, "page", defaultPage, 1, 0)
	if e != nil {
		return pageParams{}, e
	}
	limit, e := intParam(q, "limit", defaultLimit, 1, maxLimit)
	if e != nil {
		return pageParams{}, e
	}
	return pageParams{page: page, limit: limit}, nil
}

// listEnvelope is the pagination envelope of every list.
type listEnvelope struct {
	Items      any  `json:"items"`
	HasMore    bool `json:"has_more"`
	TotalCount int  `json:"total_count"`
}

// paginate cuts one page out of all. A page past the end is empty, with
// has_more false and the same total_count.
func paginate[T any](all []T, p pageParams) listEnvelope {
	total := int64(len(all))
	pages := (total + p.limit - 1) / p.limit
	items := make([]T, 0)
	hasMore := false
	if p.page-1 < pages { // no overflow: page-1 is compared, not multiplied
		start := (p.page - 1) * p.limit
		end := start + p.limit
		if end > total {
			end = total
		}
		items = append(items, all[start:end]...)
		hasMore = end < total
	}
	return listEnvelope{Items: items, HasMore: hasMore, TotalCount: int(total)}
}
