package results

import (
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// A Field is one column of a frame that [Build] makes from a slice of T:
// its name, its kind and its value for one item (a string, an int or
// int64, a float64 or a bool, as the kind says).
type Field[T any] struct {
	Name  string
	Kind  Kind
	Value func(*T) any
}

// Build is umlab's one DataFrame builder: one typed column per field, one
// row per item, in order. Schema columns take their kind from [Columns]
// through [RowFields] or [ConfigFields]; other columns (summary statistics,
// fleet comparisons) name their own. A value of the wrong type puts an
// error in the frame's Err field, as gota does.
func Build[T any](items []T, fields ...Field[T]) dataframe.DataFrame {
	cols := make([]series.Series, len(fields))
	for fi, f := range fields {
		var err error
		switch f.Kind {
		case String:
			cols[fi], err = column(items, f, series.String, "a string", func(v any) (string, bool) { x, ok := v.(string); return x, ok })
		case Int:
			cols[fi], err = column(items, f, series.Int, "an integer", func(v any) (int, bool) {
				switch x := v.(type) {
				case int:
					return x, true
				case int64:
					return int(x), true
				}
				return 0, false
			})
		case Float:
			cols[fi], err = column(items, f, series.Float, "a float64", func(v any) (float64, bool) { x, ok := v.(float64); return x, ok })
		case Bool:
			cols[fi], err = column(items, f, series.Bool, "a bool", func(v any) (bool, bool) { x, ok := v.(bool); return x, ok })
		default:
			err = fmt.Errorf("results: column %s: unknown kind %d", f.Name, f.Kind)
		}
		if err != nil {
			return dataframe.DataFrame{Err: err}
		}
	}
	return dataframe.New(cols...)
}

// column makes one typed series of field f's values, converted by conv;
// want names the type in the error for a value conv refuses.
func column[T, V any](items []T, f Field[T], t series.Type, want string, conv func(any) (V, bool)) (series.Series, error) {
	v := make([]V, len(items))
	for i := range items {
		x := f.Value(&items[i])
		var ok bool
		if v[i], ok = conv(x); !ok {
			return series.Series{}, fmt.Errorf("results: column %s: %T is not %s", f.Name, x, want)
		}
	}
	return series.New(v, t, f.Name), nil
}

// RowFields returns the fields of the named schema columns of a row, kinds
// from [Columns]; an unknown name is a string column of empty values.
func RowFields(cols ...string) []Field[Row] {
	return ConfigFields(func(r *Row) *Row { return r }, cols...)
}

// ConfigFields returns the fields of the named schema columns of the row
// that row(item) returns: a summary's or a comparison's configuration, say.
func ConfigFields[T any](row func(*T) *Row, cols ...string) []Field[T] {
	out := make([]Field[T], len(cols))
	for i, name := range cols {
		c, ok := ColumnOf(name)
		if !ok {
			c = Column{Name: name, Kind: String}
		}
		out[i] = Field[T]{Name: name, Kind: c.Kind, Value: func(t *T) any {
			v, err := row(t).Value(name)
			if err != nil {
				return ""
			}
			return v
		}}
	}
	return out
}

// Names returns the names of columns, in order.
func Names(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// StringField is a string column whose value for an item is f(item).
func StringField[T any](name string, f func(*T) string) Field[T] {
	return Field[T]{name, String, func(t *T) any { return f(t) }}
}

// IntField is an integer column whose value for an item is f(item).
func IntField[T any, I int | int64](name string, f func(*T) I) Field[T] {
	return Field[T]{name, Int, func(t *T) any { return int64(f(t)) }}
}

// FloatField is a float column whose value for an item is f(item).
func FloatField[T any](name string, f func(*T) float64) Field[T] {
	return Field[T]{name, Float, func(t *T) any { return f(t) }}
}

// BoolField is a bool column whose value for an item is f(item).
func BoolField[T any](name string, f func(*T) bool) Field[T] {
	return Field[T]{name, Bool, func(t *T) any { return f(t) }}
}
