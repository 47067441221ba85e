package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mergecheck/mergecheck/model"
	"github.com/mergecheck/mergecheck/reference"
)

// The README is read from the repository's root, two levels up.
const repoRoot = "../.."

func readREADME(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	return string(b)
}

// between returns the text of s between the markers begin and end.
func between(t *testing.T, s, begin, end string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, begin)
	require.True(t, ok, "no %q", begin)
	in, _, ok := strings.Cut(rest, end)
	require.True(t, ok, "no %q after %q", end, begin)
	return in
}

// helpFlag is one flag a command's help lists: its name, and its kind as
// the help prints it ("" for a bool, "int", "uint", "duration", or a
// placeholder such as FILE for a string).
type helpFlag struct{ name, kind string }

var (
	helpCommandLine = regexp.MustCompile(`(?m)^  mergecheck (\S+)`)
	helpFlagLine    = regexp.MustCompile(`(?m)^  -([\w-]+)(?: ([^\s]+))?`)
)

// helpCommands returns every command mergecheck help lists, each with the
// flags its own help (help COMMAND) lists.
func helpCommands(t *testing.T) map[string][]helpFlag {
	t.Helper()
	code, usage, _ := mc(t, "help")
	require.Equal(t, exitOK, code)
	commands := map[string][]helpFlag{}
	for _, m := range helpCommandLine.FindAllStringSubmatch(usage, -1) {
		cmd := m[1]
		commands[cmd] = []helpFlag{}
		if cmd == "help" {
			continue // help takes a command, not flags
		}
		code, _, errOut := mc(t, "help", cmd)
		require.Equal(t, exitOK, code, "help %s: %s", cmd, errOut)
		for _, f := range helpFlagLine.FindAllStringSubmatch(errOut, -1) {
			commands[cmd] = append(commands[cmd], helpFlag{f[1], f[2]})
		}
	}
	require.NotEmpty(t, commands)
	return commands
}

var referenceFlag = regexp.MustCompile(`(?:^|[\s\[,])--?([a-z][\w-]*)`)

// referenceCommands reads the README's command reference: a line that
// starts with "mergecheck COMMAND" begins a command, indented lines under
// it are its flags. Each line is a synopsis, then two spaces or more, then
// what it does; flags count only in the synopsis, so that a description
// may name another command's flag.
func referenceCommands(t *testing.T, block string) map[string][]string {
	t.Helper()
	commands := map[string][]string{}
	cmd := ""
	for _, line := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		synopsis, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
		switch {
		case strings.HasPrefix(line, "mergecheck "):
			cmd = strings.Fields(synopsis)[1]
			if _, twice := commands[cmd]; twice {
				t.Errorf("the command reference lists %s twice", cmd)
			}
			commands[cmd] = []string{}
		case strings.HasPrefix(line, " ") && cmd != "":
		default:
			t.Errorf("the command reference's line %q is neither a command nor, indented, its flags", line)
			continue
		}
		for _, m := range referenceFlag.FindAllStringSubmatch(synopsis, -1) {
			commands[cmd] = append(commands[cmd], m[1])
		}
	}
	return commands
}

// TestREADMECommandReferenceIsTheHelp: the README's command reference (a
// block between <!-- commands begin --> and <!-- commands end -->) names
// every command mergecheck help lists and, in its synopses, every flag
// each command's help lists, and nothing the help does not list.
func TestREADMECommandReferenceIsTheHelp(t *testing.T) {
	block := between(t, readREADME(t), "<!-- commands begin -->\n```\n", "```\n<!-- commands end -->")
	var want, got []string
	for cmd, flags := range helpCommands(t) {
		want = append(want, cmd)
		for _, f := range flags {
			want = append(want, cmd+" --"+f.name)
		}
	}
	for cmd, flags := range referenceCommands(t, block) {
		got = append(got, cmd)
		for _, f := range flags {
			got = append(got, cmd+" --"+f)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	got = slices.Compact(got)
	assert.Equal(t, want, got, "the commands and flags of mergecheck help (want) and of the README's command reference (got)")
	assert.Contains(t, got, "diff")
	assert.Contains(t, got, "matrix")
}

// shellWords splits a shell command line into its words: quotes group and
// are removed, a backslash escapes the next character, nothing is
// expanded, and an unquoted # at the start of a word begins a comment.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	quote := rune(0)
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case r == '#' && !inWord:
			return words
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// shellBlocks returns the lines of the README's fenced blocks marked sh.
func shellBlocks(readme string) []string {
	var lines []string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(readme, -1) {
		for _, line := range strings.Split(block[1], "\n") {
			if strings.TrimSpace(line) != "" {
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// positional is how many arguments other than flags each command takes,
// at least and at most (-1: any number).
var positional = map[string][2]int{
	"run": {0, 0}, "list": {0, 0}, "selftest": {0, 0}, "serve": {0, 0}, "version": {0, 0}, "help": {0, 1},
	"replay": {1, -1}, "explain": {1, 1}, "judge": {2, -1},
	"report": {1, 1}, "baseline": {1, 1}, "merge": {1, -1}, "diff": {2, 2}, "matrix": {1, -1},
}

// flagsAnywhere are the commands whose flags may follow their arguments
// (they read results files and parse with parse, not parseFlags).
var flagsAnywhere = map[string]bool{"report": true, "baseline": true, "merge": true, "diff": true, "matrix": true}

// placeholder is a value the README writes in capitals, such as FILE or
// I/N, standing for one the reader chooses.
var placeholder = regexp.MustCompile(`^[A-Z][A-Z/_.]*$`)

// checkArgs checks a command line the README shows, args after
// "mergecheck": the command exists, every flag is one its help lists and
// parses with its value, and named engines, mutants, lazy engines,
// features and files exist. With whole, the number of arguments other
// than flags must suit the command too (an inline mention such as
// "mergecheck diff" names a command without its arguments).
func checkArgs(t *testing.T, commands map[string][]helpFlag, line string, args []string, whole bool) {
	t.Helper()
	if len(args) == 0 {
		t.Errorf("%q: no command", line)
		return
	}
	cmd := args[0]
	flags, ok := commands[cmd]
	if !ok {
		t.Errorf("%q: mergecheck help lists no command %q", line, cmd)
		return
	}
	fl := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	values := map[string]*string{}
	for _, f := range flags {
		switch f.kind {
		case "":
			fl.Bool(f.name, false, "")
		case "int":
			fl.Int(f.name, 0, "")
		case "uint":
			fl.Uint(f.name, 0, "")
		case "duration":
			durationFlag(fl, f.name, 0, "")
		default:
			values[f.name] = fl.String(f.name, "", "")
		}
	}
	var rest []string
	var err error
	if flagsAnywhere[cmd] {
		rest, err = parse(fl, args[1:])
	} else if err = parseFlags(fl, args[1:]); err == nil {
		rest = fl.Args()
		for _, a := range rest {
			if strings.HasPrefix(a, "-") {
				t.Errorf("%q: %s reads no flag after its arguments: %s", line, cmd, a)
			}
		}
	}
	if err != nil {
		t.Errorf("%q: %v", line, err)
		return
	}
	if n := positional[cmd]; whole && (len(rest) < n[0] || n[1] >= 0 && len(rest) > n[1]) {
		t.Errorf("%q: %s takes %d to %d arguments besides its flags, not %d", line, cmd, n[0], n[1], len(rest))
	}
	for name, v := range values {
		if *v == "" || placeholder.MatchString(*v) {
			continue
		}
		switch name {
		case "engine":
			checkEngine(t, commands, line, *v, whole)
		case "mutant":
			assert.NotNil(t, reference.FindMutant(*v), "%q: no mutant %q", line, *v)
		case "lazy":
			assert.NotNil(t, reference.FindLazy(*v), "%q: no lazy engine %q", line, *v)
		case "features":
			var fs []model.Feature
			for _, f := range strings.Split(*v, ",") {
				fs = append(fs, model.Feature(f))
			}
			_, unknown := model.ExpandFeatures(fs)
			assert.Empty(t, unknown, "%q: unknown features", line)
		}
	}
}

// checkEngine checks the value of --engine: the reference, a mutant or a
// lazy engine that exists, or an adapter command whose files exist (and
// which, if it is mergecheck itself, is checked as a command line too).
func checkEngine(t *testing.T, commands map[string][]helpFlag, line, engine string, whole bool) {
	t.Helper()
	switch kind, name, _ := strings.Cut(engine, ":"); kind {
	case "reference":
	case "mutant":
		assert.NotNil(t, reference.FindMutant(name), "%q: no mutant %q", line, name)
	case "lazy":
		assert.NotNil(t, reference.FindLazy(name), "%q: no lazy engine %q", line, name)
	case "exec":
		words := shellWords(name)
		if len(words) > 0 && words[0] == "mergecheck" {
			checkArgs(t, commands, line, words[1:], whole)
			return
		}
		for _, w := range words[1:] {
			if strings.Contains(w, "/") {
				_, err := os.Stat(filepath.Join(repoRoot, w))
				assert.NoError(t, err, "%q: the adapter's file", line)
			}
		}
	default:
		t.Errorf("%q: the engine %q is none of reference, mutant:NAME, lazy:NAME, exec:COMMAND", line, engine)
	}
}

// TestREADMECommandsParse: every command the README shows in a shell
// block, and every inline mention of a mergecheck command, is one that
// mergecheck and the Makefile accept: its command and flags exist, its
// values parse, the engines, mutants, features and adapter files it
// names exist, and (in a shell block) it has as many arguments as its
// command takes. The commands that run long are run by other tests: the
// failure sample's (TestREADMEFailureSampleIsTheOutput), the matrix's
// (TestREADMEMatrixIsTheCommands), the other module's
// (TestFromAnotherModule), the partial engine's
// (TestPartialEngine_MutateAndMerge), the toy adapter's (adapters'
// TestToyEngine), and the set-up's (.ci/run).
func TestREADMECommandsParse(t *testing.T) {
	readme := readREADME(t)
	commands := helpCommands(t)
	makefile, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	require.NoError(t, err)

	lines := shellBlocks(readme)
	require.NotEmpty(t, lines)
	for _, line := range lines {
		w := shellWords(line)
		switch {
		case len(w) == 0:
		case w[0] == "mergecheck":
			checkArgs(t, commands, line, w[1:], true)
		case len(w) > 2 && w[0] == "go" && w[1] == "run" && w[2] == "./cmd/mergecheck":
			checkArgs(t, commands, line, w[3:], true)
		case len(w) > 2 && w[0] == "go" && w[1] == "tool" && w[2] == "mergecheck":
			checkArgs(t, commands, line, w[3:], true)
		case w[0] == "make":
			require.GreaterOrEqual(t, len(w), 2, line)
			assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(w[1])+`:`, string(makefile), "%q: no such target in the Makefile", line)
			for _, v := range w[2:] {
				assert.Contains(t, v, "=", "%q: make takes VARIABLE=VALUE after its target", line)
			}
		case len(w) == 3 && w[0] == "go" && w[1] == "install":
			_, err := os.Stat(filepath.Join(repoRoot, w[2]))
			assert.NoError(t, err, line)
		case slices.Equal(w, []string{"go", "test", "./..."}), slices.Equal(w, []string{"go", "mod", "tidy"}), w[0] == "export":
		default:
			t.Errorf("the README shows %q, which this test does not know how to check: teach it", line)
		}
	}

	// Inline mentions, outside the fenced blocks, may wrap across lines.
	prose := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(readme, "")
	mentions := regexp.MustCompile("`(mergecheck [^`]+)`").FindAllStringSubmatch(prose, -1)
	require.NotEmpty(t, mentions)
	for _, m := range mentions {
		line := strings.Join(strings.Fields(m[1]), " ")
		checkArgs(t, commands, line, shellWords(line)[1:], false)
	}
}

// TestREADMESetUpIsWhatCIRuns: the README's set-up is two commands, the
// main job (mergecheck run on the reference) and the tests, and CI's
// .ci/run runs that same test command.
func TestREADMESetUpIsWhatCIRuns(t *testing.T) {
	setUp := between(t, readREADME(t), "## Set-up\n", "\n## ")
	block := between(t, setUp, "```sh\n", "```")
	var cmds [][]string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		cmds = append(cmds, shellWords(line))
	}
	require.Len(t, cmds, 2, "the set-up is two commands:\n%s", block)
	assert.Equal(t, []string{"go", "run", "./cmd/mergecheck", "run"}, cmds[0], "the main job")
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	require.NoError(t, err)
	assert.Contains(t, strings.Split(string(ci), "\n"), strings.Join(cmds[1], " "), ".ci/run runs the README's test command")
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	fence     = regexp.MustCompile("(?s)```.*?```")
)

// anchors returns the anchors GitHub gives the headings of a Markdown
// file: lower case, punctuation but hyphens and underscores dropped,
// spaces made hyphens.
func anchors(md string) map[string]bool {
	a := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(md, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(m[1])) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a[b.String()] = true
	}
	return a
}

// TestREADMELinksResolve: every relative link of the README and of the
// files in docs/ names a file of the repository and, with a #fragment, a
// heading of that file, so that moving a section does not strand a link.
func TestREADMELinksResolve(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	require.NoError(t, err)
	files = append(files, filepath.Join(repoRoot, "README.md"))
	for _, file := range files {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, m := range mdLink.FindAllStringSubmatch(fence.ReplaceAllString(string(text), ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), path)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %s: %v", file, target, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			md, err := os.ReadFile(dest)
			require.NoError(t, err)
			assert.True(t, anchors(string(md))[frag], "%s: link %s: no heading with that anchor", file, target)
		}
	}
}
