package sandboxauth

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscape24YarnClassicPathOtherSpellings (round 24; closed: a .yarnrc
// line naming the setting in a form not understood fails closed): yarn 1 reads .yarnrc with its
// lockfile parser, which takes a key followed by a colon, several keys
// separated by commas, and quoted keys: `yarn-path: "./rel/y.js"`,
// `foo, yarn-path "./rel/y.js"` and `"yarn-path":"./rel/y.js"` all hand
// every yarn command over to ./rel/y.js (checked with the system's yarn
// 1.22.22), and yarn 1 takes the release from rc['yarn-path'] ||
// rc['yarnPath'], so `yarnPath "./rel/y.js"` in .yarnrc does too
// (relative to the directory yarn runs in). yarnClassicNamed splits the line at its first space and
// compares the key with yarn-path: these spellings name nothing, the
// release stays writable, and the user's next `yarn` runs what the
// confined command wrote there, unconfined.
//
//	before:  .yarnrc: yarn-path: "./rel/y.js"   rel/y.js: the release
//	payload: echo 'console.log("PWNED")' > rel/y.js
//	user:    yarn --version
//
// Verified with sandboxauth run as root (yarn prints PWNED by sandbox).
func TestEscape24YarnClassicPathOtherSpellings(t *testing.T) {
	yarn, err := exec.LookPath("yarn")
	require.NoError(t, err, "yarn 1 is needed (apt-get install yarnpkg, or npm i -g yarn)")
	for _, form := range []string{
		`yarn-path: "./rel/y.js"`,
		`foo, yarn-path "./rel/y.js"`,
		`"yarn-path":"./rel/y.js"`,
		`yarnPath "./rel/y.js"`, // yarn 1 reads rc['yarn-path'] || rc['yarnPath']
	} {
		t.Run(form, func(t *testing.T) {
			sb := escapeSandbox(t)
			marker := homeMarker(t)
			write15(t, filepath.Join(sb, "package.json"), `{"name":"x","version":"1.0.0"}`, 0o644)
			write15(t, filepath.Join(sb, ".yarnrc"), form+"\n", 0o644)
			write15(t, filepath.Join(sb, "rel", "y.js"), "console.log('1.22.22')\n", 0o644)
			runProtected20(t, sb, `echo 'require("fs").writeFileSync("`+marker+`", "x"); console.log("1.22.22")' > rel/y.js`)
			t.Logf("yarn --version: %s", later22a(sb, "", yarn, "--version"))
			assert.NoFileExists(t, marker, "the user's yarn ran the release the confined command rewrote (named by the read-only .yarnrc as %s)", form)
		})
	}
}

// TestEscape24RDataFirst (round 24; closed: .RData is write-protected): R restores the workspace saved in .RData in the
// directory it starts in (the default, RStudio's too: "Restore .RData
// into workspace at startup"), and then calls .First() when the
// workspace defines it. .Rprofile and .Renviron are kept read-only;
// .RData is not: the command saves a .First of its own, and the user's
// next R in the project (R at a terminal, RStudio or Positron opening the
// project) runs it, unconfined. (Rscript does not restore.)
//
//	payload: Rscript -e '.First <- function() system("touch ~/v/pwned"); save(.First, file=".RData")'
//	user:    R   (in the project)
//
// Verified with sandboxauth run as root (R 4.x: the marker was made).
func TestEscape24RDataFirst(t *testing.T) {
	r, err := exec.LookPath("R")
	require.NoError(t, err, "R is needed (apt-get install r-base-core)")
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	runProtected20(t, sb, `Rscript -e '.First <- function() system("touch `+marker+`"); save(.First, file=".RData")'`)
	t.Logf("R: %s", later22a(sb, "invisible(1)\n", r, "--no-save", "-q"))
	assert.NoFileExists(t, marker, "the user's R in the project ran the .First the confined command saved in .RData")
}

// TestEscape24MavenJvmConfig (round 24; closed: .mvn/ is write-protected): Maven reads .mvn/jvm.config at the top of
// the project (the directory holding .mvn) for the options of the JVM it
// starts, on every invocation, `mvn -v` included (and IntelliJ's Maven
// import applies it to its Maven server). .mvn is not protected: the
// command writes -agentpath: naming a library of its own, and the
// user's next mvn in the project loads it, unconfined, before reading
// any pom.xml, as yarn's yarnPath does.
//
//	payload: gcc -shared -fPIC -o a.so a.c   (Agent_OnLoad: system("touch ~/v/pwned"))
//	         echo "-agentpath:$PWD/a.so" > .mvn/jvm.config
//	user:    mvn -v
//
// Verified with sandboxauth run as root (Maven 3.8.7, OpenJDK 17).
func TestEscape24MavenJvmConfig(t *testing.T) {
	mvn, err := exec.LookPath("mvn")
	require.NoError(t, err, "Maven is needed (apt-get install maven)")
	_, err = exec.LookPath("gcc")
	require.NoError(t, err, "gcc is needed")
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	write15(t, filepath.Join(sb, "pom.xml"), "<project/>\n", 0o644)
	runProtected20(t, sb, `mkdir -p .mvn && printf '#include <stdlib.h>\nint Agent_OnLoad(void *vm, char *o, void *r) { system("touch `+marker+`"); return 0; }\n' > a.c && gcc -shared -fPIC -o a.so a.c && echo "-agentpath:$PWD/a.so" > .mvn/jvm.config`)
	t.Logf("mvn -v: %s", later22a(sb, "", mvn, "-v"))
	assert.NoFileExists(t, marker, "the user's mvn -v loaded the agent the confined command named in .mvn/jvm.config")
}

// TestEscape24ProjectSecretCopiesWithSpaces: the copies of a
// read-protected project file (.env) were hidden by the editor names
// (NAME~, NAME.bak, ...), not by the names file managers give a copy
// (".env (copy)", ".env copy") nor by Vim's persistent undo file
// ("..env.un~", which holds the lines changed).
//
//	payload: for f in .??*; do cat "$f"; done
//
// Verified with sandboxauth run as root (the three printed; .env and
// .env.bak not).
// Closed then: editorCopies (since replaced by copyname.Of) added "NAME (*)", "NAME *copy*", "copy*of NAME",
// .NAME.un~ and NAME,v.
func TestEscape24ProjectSecretCopiesWithSpaces(t *testing.T) {
	sb := escapeSandbox(t)
	for _, name := range []string{".env", ".env (copy)", ".env copy", "..env.un~"} {
		write15(t, filepath.Join(sb, name), "API_KEY=SECRET["+name+"]\n", 0o600)
	}
	out := runProtected20(t, sb, `for f in .??*; do [ -f "$f" ] && cat "$f"; done; true`)
	for _, name := range []string{".env", ".env (copy)", ".env copy", "..env.un~"} {
		assert.NotContains(t, out, "SECRET["+name+"]", "%s was readable", name)
	}
}
