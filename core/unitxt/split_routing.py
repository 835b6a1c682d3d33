"""The original's split helpers (its `unitxt.split_utils`): parsing "train[90%]+dev" mixes and "train[0:10]+test"
slices, slicing streams, routing each source split's instances to new splits at random by weight (seeded per
source split), and renaming splits. The split operators (splitters.py) do the same work on MultiStreams."""

import itertools
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from .random_utils import new_random_generator
from .stream import MissingStreamError, ReusableGenerator

_MIX = re.compile(r"((\w+\[\d*\.?\d*%?\]|\w+)\+)*(\w+\[\d*\.?\d*%?\]|\w+)")
_MIX_PART = re.compile(r"(\w+)(\[\d*\.?\d*%?\])?")


def parse_random_mix_string(input_str: str) -> Dict[str, float]:
    """"dale[90%]+oren[0.7]+mike" -> {"dale": 0.9, "oren": 0.7, "mike": 1.0}; ValueError for another form."""
    if not _MIX.fullmatch(input_str):
        raise ValueError(f"Invalid input format for split '{input_str}'")
    return {name: float(value.strip("[]%")) / 100 if "%" in value else (float(value.strip("[]")) if value else 1.0)
            for name, value in _MIX_PART.findall(input_str)}


def parse_slices_string(input_str: str) -> Dict[str, List[Tuple[Optional[int], Optional[int]]]]:
    """"train[0:10]+train[20:]+test" -> {"train": [(0, 10), (20, None)], "test": [(None, None)]}."""
    result: Dict[str, List[Tuple[Optional[int], Optional[int]]]] = {}
    for source in input_str.split("+"):
        match = re.fullmatch(r"(\w+)\[(\d*):(\d*)\]", source)
        if match:
            name, start, end = match.group(1), match.group(2), match.group(3)
            bounds = (int(start) if start else None, int(end) if end else None)
        elif re.fullmatch(r"\w+", source):
            name, bounds = source, (None, None)
        else:
            raise ValueError(f'The input string "{input_str}" is not in the correct format.')
        result.setdefault(name, []).append(bounds)
    return result


def slice_stream(stream: Iterable[Any], start: Optional[int], end: Optional[int]) -> Iterator[Any]:
    """The instances from position `start`, then at most `end` of them (the original's reading of [start:end])."""
    if start is not None:
        stream = itertools.islice(stream, start, None)
    if end is not None:
        stream = itertools.islice(stream, end)
    yield from stream


def slice_streams(input_streams: Dict[str, Iterable[Any]],
                  mapping: Dict[str, Dict[str, List[Tuple[Optional[int], Optional[int]]]]]) -> Dict[str, Any]:
    """{new split: {source split: [slices]}} -> {new split: re-runnable generator of the sliced instances}."""

    def generator(new_stream: str, sources: Dict[str, List[Tuple[Optional[int], Optional[int]]]]) -> Iterator[Any]:
        for old_stream, slices in sources.items():
            if old_stream not in input_streams:
                raise MissingStreamError(f"'{old_stream}' is not available in input streams, but need to slice there "
                                         "from")
            for start, end in slices:
                yield from slice_stream(input_streams[old_stream], start, end)

    return {new_stream: ReusableGenerator(generator, gen_kwargs={"new_stream": new_stream, "sources": sources})
            for new_stream, sources in mapping.items()}


def build_stream_routing(mapping: Dict[str, Dict[str, float]]) -> Dict[str, Tuple[List[Optional[str]], List[float]]]:
    """{new split: {source split: weight}} -> {source split: ([new splits], [weights])}, with None (dropped) taking
    the rest of a source whose weights sum below 1."""
    totals: Dict[str, float] = {}
    for sources in mapping.values():
        for old_stream, weight in sources.items():
            totals[old_stream] = totals.get(old_stream, 0) + weight
    routing: Dict[str, Dict[Optional[str], float]] = {}
    for new_stream, sources in mapping.items():
        for old_stream, weight in sources.items():
            routes = routing.setdefault(old_stream, {})
            routes[new_stream] = weight
            if totals[old_stream] < 1:
                routes[None] = 1 - totals[old_stream]
    return {old_stream: (list(routes), list(routes.values())) for old_stream, routes in routing.items()}


def rename_split(input_streams: Dict[str, Any], mapping: Dict[str, str]) -> Dict[str, Any]:
    """The streams with those named in `mapping` renamed (removed from `input_streams` under their old names)."""
    renamed = {}
    for key, value in mapping.items():
        if key not in input_streams:
            raise ValueError(f"Stream '{key}' is not in input_streams '{input_streams.keys()}'")
        renamed[value] = input_streams.pop(key)
    return {**input_streams, **renamed}


def random_mix_generator(new_stream_name: str, new_stream_sources: Iterable[str],
                         stream_routing: Dict[str, Tuple[List[Optional[str]], List[float]]],
                         input_streams: Dict[str, Iterable[Any]]) -> Iterator[Any]:
    """The instances of the sources that the seeded random routing sends to `new_stream_name`."""
    for old_stream_name in new_stream_sources:
        targets, weights = stream_routing[old_stream_name]
        rng = new_random_generator(sub_seed=old_stream_name)
        if old_stream_name not in input_streams:
            raise MissingStreamError(f"'{old_stream_name}' split not found.  Possibles options: "
                                     f"{input_streams.keys()}")
        for item in input_streams[old_stream_name]:
            if rng.choices(targets, weights=weights, k=1)[0] == new_stream_name:
                yield item


def random_mix_streams(input_streams: Dict[str, Iterable[Any]], mapping: Dict[str, Dict[str, float]]
                       ) -> Dict[str, Any]:
    """{new split: {source split: weight}} -> {new split: re-runnable generator of its randomly routed instances}."""
    routing = build_stream_routing(mapping)
    return {name: ReusableGenerator(random_mix_generator, gen_kwargs={
        "new_stream_name": name, "new_stream_sources": sources, "stream_routing": routing,
        "input_streams": input_streams}) for name, sources in mapping.items()}


__all__ = ["parse_random_mix_string", "parse_slices_string", "slice_stream", "slice_streams", "build_stream_routing",
           "rename_split", "random_mix_generator", "random_mix_streams"]
