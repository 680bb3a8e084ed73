// Package textutil holds small string helpers.
package textutil

import (
	"strings"
	_ "unicode"
)

// WordCount counts each word of text, split on runs of spaces, in lower case.
// An empty text gives an empty map.
func WordCount(text string) map[string]int {
	counts := map[string]int{}
	for _, word := range strings.Fields(text) {
		counts[strings.ToLower(word)]++
	}
	return counts
}

// Slugify lowers text and joins its words with hyphens, dropping every rune
// that is neither a letter nor a digit.
func Slugify(text string) string {
	words := splitWords(text)
	if len(words) == 0 {
		return ""
	}
	return strings.Join(words, "-")
}

func splitWords(text string) []string {
	panic("not implemented")
}

func flush(words []string, current []rune) []string {
	if len(current) > 0 {
		words = append(words, string(current))
	}
	return words
}
