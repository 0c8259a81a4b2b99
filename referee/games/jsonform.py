"""The JSON form of a frozen dataclass, derived from its field types.

One table says how each kind of value is written and read: scalars as they are, tuples as lists,
frozensets as sorted lists, mappings as objects (int keys as strings), ``X | None`` as null or X, a
nested dataclass as an object of its fields, and any class registered in ``kinds`` by its own pair of
functions. A field missing from the data takes its default (data written before the field existed);
a field's ``metadata["read"]`` replaces the derived reader (for values whose older form differs).
"""
from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from typing import Any, Callable

Write = Callable[[Any], Any]
Read = Callable[[Any], Any]
Codec = tuple[Write, Read]

_SCALARS = (int, str, bool, float, type(None), typing.Any)


def same(value: Any) -> Any:
    return value


class Form:
    """The codecs of a family of dataclasses; ``kinds`` maps a class to its (write, read)."""

    def __init__(self, kinds: dict[type, Codec] | None = None):
        self.kinds: dict[type, Codec] = dict(kinds or {})
        self._fields: dict[type, tuple[tuple[str, Write, Read, Any], ...]] = {}
        self._readers: dict[type, Callable[[dict[str, Any]], Any]] = {}

    def fields(self, cls: type) -> tuple[tuple[str, Write, Read, Any], ...]:
        """(name, write, read, default) of each field of ``cls``; default is MISSING if none."""
        known = self._fields.get(cls)
        if known is None:
            hints = typing.get_type_hints(cls)
            known = tuple(
                (f.name, *self._pair(hints[f.name], f), self._default(f)) for f in dataclasses.fields(cls))
            self._fields[cls] = known
        return known

    def _pair(self, hint: Any, f: dataclasses.Field) -> Codec:
        write, read = self.codec(hint)
        return write, f.metadata.get("read", read)

    @staticmethod
    def _default(f: dataclasses.Field) -> Any:
        if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            return f.default_factory()  # type: ignore[misc]
        return f.default

    def to_dict(self, obj: Any) -> dict[str, Any]:
        return {name: write(getattr(obj, name)) for name, write, _, _ in self.fields(type(obj))}

    def from_dict(self, cls: type, data: dict[str, Any]) -> Any:
        """``cls`` from its JSON form; raises KeyError naming a missing field that has no default.
        (Opening a long match reads thousands of these, so each class gets a reader of its own, written
        out like dataclasses' own ``__init__``: the fields stored as they are copied, the others read
        with one call each. A missing field takes the slower path that looks at defaults.)"""
        reader = self._readers.get(cls)
        if reader is None:
            reader = self._readers[cls] = self._compile_reader(cls)
        try:
            return reader(data)
        except KeyError:
            return self._from_dict_with_defaults(cls, data)

    def _compile_reader(self, cls: type) -> Callable[[dict[str, Any]], Any]:
        namespace: dict[str, Any] = {"cls": cls, "new": object.__new__}
        fields = self.fields(cls)
        values = []
        for i, (name, _, read, _) in enumerate(fields):
            if read is same:
                values.append(f"d[{name!r}]")
            elif read is tuple:
                values.append(f"tuple(d[{name!r}])")
            else:
                namespace[f"read{i}"] = read
                values.append(f"read{i}(d[{name!r}])")
        slots = [cls.__dict__.get(name) for name, *_ in fields]
        if hasattr(cls, "__post_init__") or not all(isinstance(s, types.MemberDescriptorType) for s in slots):
            args = ", ".join(f"{name}={value}" for (name, *_), value in zip(fields, values))
            source = f"def reader(d):\n    return cls({args})\n"
        else:  # a frozen class with slots: each slot set straight (its __init__ sets each through __setattr__'s
            # look-up by name, about a third of the time a long match's snapshot takes to open)
            namespace.update({f"set{i}": slot.__set__ for i, slot in enumerate(slots)})
            sets = "".join(f"    set{i}(o, {value})\n" for i, value in enumerate(values))
            source = f"def reader(d):\n    o = new(cls)\n{sets}    return o\n"
        exec(source, namespace)  # noqa: S102 - our field names only
        return namespace["reader"]

    def _from_dict_with_defaults(self, cls: type, data: dict[str, Any]) -> Any:
        values = {}
        for name, _, read, default in self.fields(cls):
            if name in data:
                values[name] = read(data[name])
            elif default is dataclasses.MISSING:
                raise KeyError(name)
            else:
                values[name] = default
        return cls(**values)

    def codec(self, hint: Any) -> Codec:
        """(write, read) for a value of type ``hint``."""
        if hint in self.kinds:
            return self.kinds[hint]
        if hint in _SCALARS:
            return same, same
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            inner = [a for a in args if a is not type(None)]
            if len(inner) != 1:
                raise TypeError(f"no JSON form for {hint!r}")
            return self._optional(self.codec(inner[0]))
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return self._sequence(self.codec(args[0]))
            return self._record([self.codec(a) for a in args])
        if origin is frozenset:
            return sorted, frozenset
        if origin in (collections.abc.Mapping, dict):
            return self._mapping(args[0], self.codec(args[1]))
        if dataclasses.is_dataclass(hint):
            return self.to_dict, lambda data, cls=hint: self.from_dict(cls, data)
        raise TypeError(f"no JSON form for {hint!r}")

    @staticmethod
    def _optional(inner: Codec) -> Codec:
        write, read = inner
        if write is same and read is same:
            return same, same
        return (lambda v: None if v is None else write(v)), (lambda v: None if v is None else read(v))

    @staticmethod
    def _sequence(inner: Codec) -> Codec:
        write, read = inner
        if write is same and read is same:
            return list, tuple
        return (lambda v: [write(x) for x in v]), (lambda v: tuple([read(x) for x in v]))

    @staticmethod
    def _record(parts: list[Codec]) -> Codec:
        return ((lambda v: [w(x) for (w, _), x in zip(parts, v)]),
                (lambda v: tuple([r(x) for (_, r), x in zip(parts, v)])))

    @staticmethod
    def _mapping(key: Any, inner: Codec) -> Codec:
        """A read-only mapping; JSON object keys are strings, so int keys are written as strings."""
        write, read = inner
        to_key = int if key is int else same
        if read is same:  # the common case, read without a call per value
            reader = ((lambda d: types.MappingProxyType({int(k): v for k, v in d.items()})) if to_key is int
                      else (lambda d: types.MappingProxyType(dict(d))))
        else:
            reader = lambda d: types.MappingProxyType({to_key(k): read(v) for k, v in d.items()})  # noqa: E731
        return (lambda m: {str(k) if to_key is int else k: write(v) for k, v in m.items()}), reader
