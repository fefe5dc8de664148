package sandboxauth

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestVersionFromBuildInfo: the version comes from the build information,
// never from a constant that a release may forget to change.
func TestVersionFromBuildInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "4e7e013c5d2a9b8f0000000000000000deadbeef"}}
	dirty := append(append([]debug.BuildSetting{}, rev...), debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	tests := []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"checkout without VCS stamp", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}, "(devel)"},
		{"checkout at a commit", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: rev}, "(devel) 4e7e013c5d2a"},
		{"checkout with changes", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: dirty}, "(devel) 4e7e013c5d2a+modified"},
		{"go install @latest without a tag", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261126120000-4e7e013c5d2a"}}, "v0.0.0-20261126120000-4e7e013c5d2a"},
		{"a dependency at a release", debug.BuildInfo{Main: debug.Module{Path: "example.com/agent", Version: "(devel)"}, Deps: []*debug.Module{{Path: "mvdan.cc/sh/v3", Version: "v3.12.0"}, {Path: modulePath, Version: "v0.2.0"}}}, "v0.2.0"},
		{"a dependency replaced by a directory", debug.BuildInfo{Main: debug.Module{Path: "example.com/agent"}, Deps: []*debug.Module{{Path: modulePath, Version: "v0.2.0", Replace: &debug.Module{Path: "../sandboxauth"}}}}, "(devel)"},
		{"not in the program", debug.BuildInfo{Main: debug.Module{Path: "example.com/agent"}}, "(unknown)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, versionFrom(&tt.bi))
		})
	}
	assert.NotEmpty(t, Version())
}
