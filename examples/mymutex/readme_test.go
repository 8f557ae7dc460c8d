package mymutex_test

import (
	"os"
	"strings"
	"testing"
)

// The README's tutorial ("Checking your own protocol") shows these very
// files, whole: what it shows compiles and passes.
func TestREADMEShowsTheseFiles(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mutex.go", "mutex_test.go"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), "```go\n"+string(src)+"```\n") {
			t.Errorf("README.md does not show examples/mymutex/%s as it is: copy the file into its code block", name)
		}
	}
}
