package classify

import "github.com/sandboxauth/sandboxauth/internal/programs"

// runsGit judges a program that runs git in its working directory's
// repository itself (programs.RunsGitStatus: go build stamping version
// control facts) as git status would be judged there. args are the words
// after the program's name.
func (r *cmdClassifier) runsGit(name string, args []string, cwd string) Verdict {
	why := programs.RunsGitStatus(name, args)
	if why == "" {
		return safeCmdVerdict
	}
	v := r.gitRepository(cwd, nil, []string{"status"})
	if v.res != Safe {
		v.reason = why + ": " + v.reason
	}
	return v
}
