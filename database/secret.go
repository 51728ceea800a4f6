package database

import (
	"net/url"
	"strings"
)

// ScrubSecret removes each secret, and its URL-escaped forms, from a driver message:
// drivers quote their DSN, password included, in some of their errors.
func ScrubSecret(msg string, secrets ...string) string {
	for _, s := range secrets {
		for _, p := range []string{s, url.QueryEscape(s), url.PathEscape(s)} {
			if p != "" {
				msg = strings.ReplaceAll(msg, p, "xxxxx")
			}
		}
	}
	return msg
}

// SecretFreeError carries a driver error with the password scrubbed from its text,
// keeping the error itself for errors.As, so its class survives (a refused or broken
// connection is still classified Connection).
type SecretFreeError struct {
	Msg string
	Err error
}

func (e *SecretFreeError) Error() string { return e.Msg }
func (e *SecretFreeError) Unwrap() error { return e.Err }

// Scrubbed is err with ScrubSecret applied to its text.
func Scrubbed(err error, secrets ...string) error {
	return &SecretFreeError{Msg: ScrubSecret(err.Error(), secrets...), Err: err}
}
