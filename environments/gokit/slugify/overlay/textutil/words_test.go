package textutil

import "testing"



func TestWordCount(t *testing.T) {
	if got := WordCount("a b a")["a"]; got != 2 {
		t.Fatalf("WordCount: got %d", got)
	}
}
