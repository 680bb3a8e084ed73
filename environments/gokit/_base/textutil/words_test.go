package textutil

import "testing"

func TestSlugify(t *testing.T) {
	if got := Slugify("Hello, World!"); got != "hello-world" {
		t.Fatalf("Slugify: got %q", got)
	}
}

func TestWordCount(t *testing.T) {
	if got := WordCount("a b a")["a"]; got != 2 {
		t.Fatalf("WordCount: got %d", got)
	}
}
