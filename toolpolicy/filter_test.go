package toolpolicy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

type testTool struct {
	Name string
	Desc string
}

func TestFilter(t *testing.T) {
	p := mustResolve(t, `{"tools":{"profile":"coding","deny":["process"]}}`, Query{})
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"keeps order and spelling", []string{"Read", "browser", "BASH", "process", "apply-patch"}, []string{"Read", "BASH", "apply-patch"}},
		{"nil", nil, []string{}},
		{"nothing allowed", []string{"browser", ""}, []string{}},
		{"duplicates kept", []string{"read", "read"}, []string{"read", "read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]string(nil), tt.in...)
			assert.Equal(t, tt.want, p.FilterNames(tt.in))
			assert.Equal(t, in, tt.in, "input not modified")
		})
	}

	tools := []testTool{{"read", "reads"}, {"browser", "browses"}, {"exec", "runs"}}
	got := Filter(p, tools, func(t testTool) string { return t.Name })
	assert.Equal(t, []testTool{{"read", "reads"}, {"exec", "runs"}}, got)

	ptrs := []*testTool{{Name: "write"}, {Name: "cron"}}
	assert.Len(t, Filter(p, ptrs, func(t *testTool) string { return t.Name }), 1)
}
