// Package jsonschema checks a decoded JSON value against the part of JSON
// Schema (draft 2020-12) that mergecheck's published schemas use, so that
// tests can hold the code that writes or reads a format to its schema
// without a dependency for it.
//
// It knows type (a name or a list of names), enum, const, minimum,
// required, properties, additionalProperties (false or a schema), items,
// oneOf, anyOf, not and if/then/else. Any other keyword is ignored, so a
// schema that starts using one needs it added here first.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
)

// Parse decodes a schema, or a document to check, from JSON.
func Parse(data []byte) (any, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// Validate returns every way v breaks schema, each with its path ($ for
// the whole value); none when v conforms.
func Validate(schema, v any) []string { return validate(schema, v, "$") }

func validate(s any, v any, path string) []string {
	schema, ok := s.(map[string]any)
	if !ok {
		if b, isBool := s.(bool); isBool && !b {
			return []string{path + ": nothing is allowed here"}
		}
		return nil
	}
	if t, ok := schema["type"]; ok && !isAnyType(v, t) {
		return []string{fmt.Sprintf("%s: %s is not a JSON %v", path, kind(v), t)}
	}
	var errs []string
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, v) }) {
		errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", path, v, enum))
	}
	if c, ok := schema["const"]; ok && !reflect.DeepEqual(c, v) {
		errs = append(errs, fmt.Sprintf("%s: %v is not %v", path, v, c))
	}
	if lo, ok := schema["minimum"].(float64); ok {
		if n, isNum := v.(float64); isNum && n < lo {
			errs = append(errs, fmt.Sprintf("%s: %v is below %v", path, n, lo))
		}
	}
	errs = append(errs, validateObject(schema, v, path)...)
	if list, ok := v.([]any); ok {
		if items, ok := schema["items"]; ok {
			for i, it := range list {
				errs = append(errs, validate(items, it, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return append(errs, validateCombined(schema, v, path)...)
}

// validateObject applies required, properties and additionalProperties.
func validateObject(schema map[string]any, v any, path string) []string {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var errs []string
	for _, r := range list(schema["required"]) {
		if _, has := obj[r.(string)]; !has {
			errs = append(errs, fmt.Sprintf("%s: required %q is missing", path, r))
		}
	}
	props, _ := schema["properties"].(map[string]any)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if sub, ok := props[k]; ok {
			errs = append(errs, validate(sub, obj[k], path+"."+k)...)
			continue
		}
		switch extra := schema["additionalProperties"].(type) {
		case bool:
			if !extra {
				errs = append(errs, fmt.Sprintf("%s: %q is not in the schema", path, k))
			}
		case map[string]any:
			errs = append(errs, validate(extra, obj[k], path+"."+k)...)
		}
	}
	return errs
}

// validateCombined applies oneOf, anyOf, not and if/then/else.
func validateCombined(schema map[string]any, v any, path string) []string {
	var errs []string
	if subs := list(schema["oneOf"]); len(subs) > 0 {
		if n := matching(subs, v, path); n != 1 {
			errs = append(errs, fmt.Sprintf("%s: matches %d of oneOf's %d schemas, not one", path, n, len(subs)))
		}
	}
	if subs := list(schema["anyOf"]); len(subs) > 0 && matching(subs, v, path) == 0 {
		errs = append(errs, fmt.Sprintf("%s: matches none of anyOf's %d schemas", path, len(subs)))
	}
	if not, ok := schema["not"]; ok && len(validate(not, v, path)) == 0 {
		errs = append(errs, fmt.Sprintf("%s: matches what not forbids", path))
	}
	if cond, ok := schema["if"]; ok {
		branch := schema["else"]
		if len(validate(cond, v, path)) == 0 {
			branch = schema["then"]
		}
		if branch != nil {
			errs = append(errs, validate(branch, v, path)...)
		}
	}
	return errs
}

func matching(subs []any, v any, path string) int {
	n := 0
	for _, s := range subs {
		if len(validate(s, v, path)) == 0 {
			n++
		}
	}
	return n
}

func list(v any) []any { l, _ := v.([]any); return l }

func isAnyType(v any, t any) bool {
	if name, ok := t.(string); ok {
		return isType(v, name)
	}
	return slices.ContainsFunc(list(t), func(name any) bool { s, _ := name.(string); return isType(v, s) })
}

func isType(v any, name string) bool {
	switch name {
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
	case "null":
		return v == nil
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		n, ok := v.(float64)
		return ok && n == math.Trunc(n) && !math.IsInf(n, 0)
	}
	return false
}

// kind names v's JSON type, for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
