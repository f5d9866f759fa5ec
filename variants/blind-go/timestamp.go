package main

import "time"

// Timestamp is an instant written as RFC 3339 in UTC with a fixed six-digit
// fraction ("2024-05-01T12:00:00.000000Z"), so that the strings also sort
// in time order.
type Timestamp struct{ time.Time }

const timestampLayout = "2006-01-02T15:04:05.000000Z07:00"

func (t Timestamp) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(timestampLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, timestampLayout)
	return append(b, '"'), nil
}

func tsPtr(t *time.Time) *Timestamp {
	if t == nil {
		return nil
	}
	return &Timestamp{*t}
}
