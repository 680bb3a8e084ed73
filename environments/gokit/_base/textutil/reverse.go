package textutil

import "errors"

// ErrEmpty is returned for an empty input.
var ErrEmpty = errors.New("textutil: empty input")

// Reverse returns s with its runes in reverse order, or ErrEmpty for "".
func Reverse(s string) (string, error) {
	if s == "" {
		return "", ErrEmpty
	}
	runes := []rune(s)
	for i, j := 0, len(runes)-1; i < j; i, j = i+1, j-1 {
		runes[i], runes[j] = runes[j], runes[i]
	}
	return string(runes), nil
}
