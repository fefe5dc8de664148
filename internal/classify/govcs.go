package classify

import (
	"slices"
)

// goVCSStamping: go build and go install stamp the binary with version
// control facts by running git status and git log in the module's
// repository (-buildvcs defaults to auto), so the repository is judged as
// for git status. args are the words after "go".
func (r *cmdClassifier) goVCSStamping(args []string, cwd string) Verdict {
	if len(args) == 0 || args[0] != "build" && args[0] != "install" ||
		slices.Contains(args, "-buildvcs=false") || slices.Contains(args, "--buildvcs=false") {
		return safeCmdVerdict
	}
	v := r.gitRepository(cwd, nil, []string{"status"})
	if v.res != Safe {
		v.reason = "go " + args[0] + " runs git status to stamp version control facts: " + v.reason
	}
	return v
}
