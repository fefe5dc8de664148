package sandboxauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// schemaChecker validates JSON values against config.schema.json. It knows
// exactly the keywords that schema uses and refuses a schema with any
// other, so that it never passes a document by ignoring a rule.
type schemaChecker struct {
	root map[string]any
}

var schemaKeywords = []string{"$schema", "$id", "$defs", "$ref", "title", "description",
	"type", "properties", "additionalProperties", "required", "enum", "items", "pattern", "minLength", "anyOf", "default"}

func loadSchema(t *testing.T) *schemaChecker {
	t.Helper()
	data, err := os.ReadFile("config.schema.json")
	require.NoError(t, err)
	var root map[string]any
	require.NoError(t, json.Unmarshal(data, &root))
	return &schemaChecker{root: root}
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// check returns the first violation of v against schema s, or nil.
func (c *schemaChecker) check(s map[string]any, v any, path string) error {
	for k := range s {
		if !slices.Contains(schemaKeywords, k) {
			return fmt.Errorf("schema at %s uses the keyword %q, which this checker does not know", path, k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/$defs/")
		def, ok := c.root["$defs"].(map[string]any)[name].(map[string]any)
		if !found || !ok {
			return fmt.Errorf("%s: unresolvable $ref %q", path, ref)
		}
		if err := c.check(def, v, path); err != nil {
			return err
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var errs []string
		for _, alt := range alts {
			err := c.check(alt.(map[string]any), v, path)
			if err == nil {
				errs = nil
				break
			}
			errs = append(errs, err.Error())
		}
		if len(errs) > 0 {
			return fmt.Errorf("%s: matches none of anyOf: %s", path, strings.Join(errs, "; "))
		}
	}
	if typ, ok := s["type"].(string); ok && !hasType(v, typ) {
		return fmt.Errorf("%s: want type %s, got %T", path, typ, v)
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		return fmt.Errorf("%s: %v is not one of %v", path, v, enum)
	}
	if str, ok := v.(string); ok {
		if n, ok := s["minLength"].(float64); ok && utf8.RuneCountInString(str) < int(n) {
			return fmt.Errorf("%s: shorter than %v", path, n)
		}
		if pat, ok := s["pattern"].(string); ok && !regexp.MustCompile(pat).MatchString(str) {
			return fmt.Errorf("%s: %q does not match %s", path, str, pat)
		}
	}
	if arr, ok := v.([]any); ok {
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range arr {
				if err := c.check(items, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := obj[r.(string)]; !ok {
					return fmt.Errorf("%s: %q is required", path, r)
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub := path + "." + k
			if ps, ok := props[k].(map[string]any); ok {
				if err := c.check(ps, obj[k], sub); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: unknown key", sub)
				}
			case map[string]any:
				if err := c.check(ap, obj[k], sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	}
	return false
}

func (c *schemaChecker) validate(data []byte) error {
	v, err := decodeJSON(data)
	if err != nil {
		return err
	}
	return c.check(c.root, v, "$")
}

// Every example configuration is valid under the schema and loads.
func TestConfigExamplesMatchSchemaAndLoad(t *testing.T) {
	sc := loadSchema(t)
	files, err := filepath.Glob("testdata/config/*.json")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 5)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			assert.NoError(t, sc.validate(data), "schema")
			c, err := LoadConfig(f)
			require.NoError(t, err, "LoadConfig")
			a, _, err := c.NewAuthorizer()
			require.NoError(t, err, "NewAuthorizer")
			a.Close()
		})
	}
}

// The schema and the loader reject the same mistakes (the loader rejects
// more: see TestParseConfigErrors).
func TestConfigSchemaRejectsWhatTheLoaderRejects(t *testing.T) {
	sc := loadSchema(t)
	bad := map[string]string{
		"unknown key":           `{"polcy": "sandbox"}`,
		"unknown policy":        `{"policy": "lenient"}`,
		"confine, relative dir": `{"confine": {"writable": ["cache"]}}`,
		"null":                  `{"headless": null}`,
		"wrong type":            `{"splitCompound": "yes"}`,
		"bad duration":          `{"promptTimeout": "2 minutes"}`,
		"bare number duration":  `{"promptTimeout": "5"}`,
		"command with slash":    `{"commands": {"safe": {"add": [{"command": "/usr/bin/make"}]}}}`,
		"command with space":    `{"commands": {"blocked": {"add": [{"command": "git push"}]}}}`,
		"missing command":       `{"commands": {"blocked": {"add": [{"args": ["push"]}]}}}`,
		"blank flag":            `{"commands": {"dangerous": {"add": [{"command": "x", "flags": [" "]}]}}}`,
		"two-line reason":       `{"commands": {"blocked": {"add": [{"command": "x", "reason": "a\nb"}]}}}`,
		"override outside safe": `{"commands": {"blocked": {"add": [{"command": "x", "overrideBlocked": true}]}}}`,
		"unknown list":          `{"commands": {"allowed": {}}}`,
		"absolute protected":    `{"protectedPaths": {"add": [{"pattern": "/etc", "read": true}]}}`,
		"protected no pattern":  `{"protectedPaths": {"add": [{"read": true}]}}`,
		"tools unknown key":     `{"tools": {"tool": {}}}`,
		"tools blank agent id":  `{"tools": {"agents": [{"id": " "}]}}`,
		"tools not an object":   `{"tools": ["read"]}`,
	}
	for name, doc := range bad {
		t.Run(name, func(t *testing.T) {
			assert.Error(t, sc.validate([]byte(doc)), "schema")
			_, err := ParseConfig([]byte(doc))
			assert.ErrorIs(t, err, ErrInvalidConfig, "loader")
		})
	}
}

// The checker itself refuses a schema keyword it does not implement.
func TestSchemaCheckerRefusesUnknownKeywords(t *testing.T) {
	sc := &schemaChecker{root: map[string]any{"type": "object", "minProperties": 1.0}}
	assert.ErrorContains(t, sc.validate([]byte(`{}`)), "minProperties")
}
