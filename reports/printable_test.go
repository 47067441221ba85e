package reports_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mergecheck/mergecheck/reports"
)

// TestPrintable: control characters but line breaks and tabs, C1 controls
// and bytes that are not UTF-8 are escaped; everything else, accents and
// the CR's typography included, is left as it is.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\tindented":     "plain text\n\tindented",
		"Lim-Dûl’s “Vault” – a dash": "Lim-Dûl’s “Vault” – a dash",
		"\x1b[31mred\x1b[0m":         `\u001b[31mred\u001b[0m`,
		"nul\x00bell\x07del\x7f":     `nul\u0000bell\u0007del\u007f`,
		"c1 \u009b csi":              `c1 \u009b csi`,
		"bad \xff utf-8 \xc3":        `bad \xff utf-8 \xc3`,
		"carriage\rreturn":           `carriage\u000dreturn`,
	} {
		assert.Equal(t, want, reports.Printable(in), "%q", in)
	}
}
