// Package clip cuts the input that error messages quote to a readable
// length, so that a malformed line of 100 KB yields an error of one short
// line that still names where it is (the line number stays outside the
// quoted part).
package clip

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is the most bytes of quoted input an error message shows.
const Max = 60

// MaxLine is the most bytes of a whole one-line error message.
const MaxLine = 400

// String returns s, or its first Max bytes (cut at a rune boundary)
// followed by "..." and how long s is.
func String(s string) string {
	if len(s) <= Max {
		return s
	}
	return prefix(s, Max) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Quote is strconv.Quote of s, cut so that the quoted text is at most
// about Max bytes long (binary input quotes to four bytes a byte); when s
// is cut, "..." ends the quoted part and the length of s follows it.
func Quote(s string) string {
	if q := strconv.Quote(s); len(q) <= Max+2 {
		return q
	}
	n := min(len(s), Max)
	for n > 0 && len(strconv.Quote(prefix(s, n))) > Max+2 {
		n--
	}
	return strconv.Quote(prefix(s, n)+"...") + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// Line makes msg one line of at most MaxLine bytes: line breaks become
// spaces and a longer message keeps its beginning (which names the file,
// the line and what is wrong) and says how much was cut.
func Line(msg string) string {
	msg = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(msg)
	if len(msg) <= MaxLine {
		return msg
	}
	return prefix(msg, MaxLine) + "... (" + strconv.Itoa(len(msg)-len(prefix(msg, MaxLine))) + " more bytes)"
}

// prefix is the longest prefix of s of at most n bytes that does not end
// inside a UTF-8 sequence.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
