package textutil

import "errors"

// ErrEmpty is returned for an empty input.
var ErrEmpty = errors.New("textutil: empty input")

// Reverse returns s with its runes in reverse order, or ErrEmpty for "".
func Reverse(s string) (string, error) {
	panic("not implemented")
}
