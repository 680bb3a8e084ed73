package textutil

import "testing"

func TestSlugify(t *testing.T) {
	if got := Slugify("Hello, World!"); got != "hello-world" {
		t.Fatalf("Slugify: got %q", got)
	}
}


