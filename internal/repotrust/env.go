package repotrust

import (
	"strconv"
	"strings"
)

// envNames are the environment variables that change which repository
// and which configuration git uses. A decision is cached together with
// their values.
var envNames = [...]string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_INDEX_FILE",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
	"GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "HOME", "XDG_CONFIG_HOME",
}

// envSnapshot holds the values of envNames (and of the GIT_CONFIG_KEY_n
// and GIT_CONFIG_VALUE_n pairs that GIT_CONFIG_COUNT announces, joined in
// extra). A variable that is unset is "" with its bit clear in set.
type envSnapshot struct {
	vals  [len(envNames)]string
	set   uint32
	extra string
}

// Env looks up one environment variable of the process git will run in,
// like os.LookupEnv.
type Env func(name string) (string, bool)

func snapshot(env Env) envSnapshot {
	var s envSnapshot
	if env == nil {
		return s
	}
	for i, n := range envNames {
		if v, ok := env(n); ok {
			s.vals[i], s.set = v, s.set|1<<i
		}
	}
	count, _ := s.get("GIT_CONFIG_COUNT")
	if n, err := strconv.Atoi(count); err == nil && n > 0 && n <= 64 {
		var b strings.Builder
		for i := 0; i < n; i++ {
			k, _ := env("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			v, _ := env("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
			b.WriteString(k + "\x00" + v + "\x00")
		}
		s.extra = b.String()
	}
	return s
}

func (s envSnapshot) get(name string) (string, bool) {
	for i, n := range envNames {
		if n == name {
			return s.vals[i], s.set&(1<<i) != 0
		}
	}
	return "", false
}

// envSettings returns the settings git takes from GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, or a problem when those (or
// GIT_CONFIG_PARAMETERS, which -c fills) are not understood.
func (s envSnapshot) envSettings() ([]Setting, *Problem) {
	if v, ok := s.get("GIT_CONFIG_PARAMETERS"); ok && v != "" {
		return nil, &Problem{Where: "environment", Setting: "GIT_CONFIG_PARAMETERS", Why: "sets configuration from the environment, which is not read here"}
	}
	c, ok := s.get("GIT_CONFIG_COUNT")
	if !ok || c == "" || c == "0" {
		return nil, nil
	}
	n, err := strconv.Atoi(c)
	if err != nil || n < 0 || n > 64 {
		return nil, &Problem{Where: "environment", Setting: "GIT_CONFIG_COUNT", Why: "is not a count of at most 64"}
	}
	parts := strings.Split(s.extra, "\x00")
	var out []Setting
	for i := 0; i < n; i++ {
		k, v := parts[2*i], parts[2*i+1]
		first, last := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
		if first <= 0 || last == len(k)-1 {
			return nil, &Problem{Where: "environment", Setting: "GIT_CONFIG_KEY_" + strconv.Itoa(i), Why: "is not a section.key name"}
		}
		st := Setting{Section: strings.ToLower(k[:first]), Key: strings.ToLower(k[last+1:]), Value: v, HasValue: true,
			File: "environment GIT_CONFIG_KEY_" + strconv.Itoa(i)}
		if first != last {
			st.Subsection = k[first+1 : last]
		}
		out = append(out, st)
	}
	return out, nil
}
