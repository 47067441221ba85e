package reports_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/harness"
	"github.com/mergecheck/mergecheck/internal/declared"
	"github.com/mergecheck/mergecheck/reports"
)

// TestAnyDeclaration_ReportedWhole: the reference behind any declaration
// holds or is unsupported on every rule (a quarter of the suite's random
// declarations; see harness's TestAnyDeclaration_HeldOrUnsupported), and
// every report of the run is written, the JSON one read back valid with
// every rule in it.
func TestAnyDeclaration_ReportedWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("fifty declarations at three seeds, each a whole run")
	}
	for _, i := range declared.Share(2, 4) {
		d := declared.Nth(i)
		for _, seed := range declared.Seeds(i) {
			t.Run(fmt.Sprintf("%d/seed=%d", i, seed), func(t *testing.T) {
				wrong, res, err := declared.Check(d, seed)
				require.NoError(t, err, d.String())
				assert.Empty(t, wrong, "the reference served with %s, seed %d", d, seed)
				for name, write := range map[string]func(io.Writer, *harness.Results) error{
					"json": reports.WriteJSON, "junit": reports.WriteJUnit, "html": reports.WriteHTML, "markdown": reports.WriteMarkdown,
				} {
					var b bytes.Buffer
					require.NoError(t, write(&b, res), name)
					if name == "json" {
						doc, err := reports.ReadJSON(&b)
						require.NoError(t, err, "the JSON report of %s", d)
						assert.Len(t, doc.Results, len(res.Results))
					}
				}
			})
		}
	}
}
