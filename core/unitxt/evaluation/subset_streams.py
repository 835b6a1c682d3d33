"""The original's way of scoring subsets and groups as streams (its `unitxt.metric_utils`): `SplitSubsetsAndGroups`
gives every instance to a stream per subset (`<split>>><subset path>`) and per group of it
(`<split>>><subset path>?<key>:<value>`); after a metric scored each stream, `JoinSubsetsAndGroups` puts the
instances back in order with every stream's global score under `subsets` / `groups` and the mean of the subsets
as the global score. This library's evaluation scores subsets and groups over index lists (evaluation.partitions);
these operators serve code written for the original's streams."""

import json
import math
from collections import defaultdict
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..general.helpers import recursive_copy
from ..operator import MultiStreamOperator
from ..stream import MultiStream

DEFAULT_STREAM_NAME = "all_data"
DEFAULT_STREAM_SUBSET_SEPARATOR = ">>"


def nan_mean(scores: List[Any]) -> float:
    """The mean of the scores that are not NaN (NaN when none is)."""
    present = [score for score in scores if not (isinstance(score, float) and math.isnan(score))]
    return sum(present) / len(present) if present else float("nan")


class EmptyPrediction:
    """The prediction of an instance scored without one (`empty_predictions_generator`): equal to nothing else."""

    def __repr__(self) -> str:
        return "<__empty_prediction__>"

    def __str__(self) -> str:
        return "<__empty_prediction__>"


def empty_predictions_generator() -> Iterator[EmptyPrediction]:
    """An endless supply of EmptyPrediction (predictions for instances scored without any)."""
    while True:
        yield EmptyPrediction()


def group_text(group_json: str) -> str:
    """A group as written in stream names: '{"template": "t1", "n": 1}' -> 'template:t1,n:1'."""
    return ",".join(f"{key}:{value}" for key, value in json.loads(group_json).items())


def group_key_value(text: str) -> Tuple[Any, Any]:
    """'template:t1' -> ("template", "t1"); several pairs give tuples; digit values become ints."""
    pairs = [part.split(":") for part in text.split(",")]
    keys = [key for key, _ in pairs]
    values = [int(value) if value.isdigit() else value for _, value in pairs]
    return (keys[0] if len(keys) == 1 else tuple(keys)), (values[0] if len(values) == 1 else tuple(values))


def stream_origin_subset_group(stream_name: str) -> Tuple[str, str, Optional[str]]:
    """'test>>a/b?k:v' -> ("test", "a/b", "k:v"); no group gives None."""
    origin, subset_group = stream_name.split(DEFAULT_STREAM_SUBSET_SEPARATOR)
    subset, _, group = subset_group.partition("?")
    return origin, subset, group or None


class SplitSubsetsAndGroups(MultiStreamOperator):
    """One stream per (split, subset path cut at `subset_depth`) and one per group of it; each instance records its
    position in its split in "__idx__" (for JoinSubsetsAndGroups)."""

    subsets_field: str = "subset"
    groups_field: str = "groups"
    subset_depth: Optional[int] = None

    def process(self, multi_stream: MultiStream) -> MultiStream:
        streams: Dict[str, List[Dict[str, Any]]] = defaultdict(list)
        for stream_name, stream in multi_stream.items():
            for index, instance in enumerate(stream):
                instance["__idx__"] = index
                for field in (self.subsets_field, self.groups_field):
                    if field not in instance:
                        raise ValueError(f"Field {field} is missing from instance {instance}")
                subset_name = (stream_name + DEFAULT_STREAM_SUBSET_SEPARATOR
                               + "/".join(instance[self.subsets_field][: self.subset_depth]))
                streams[subset_name].append(instance)
                for group in instance[self.groups_field]:
                    streams[subset_name + "?" + group_text(group)].append(instance)
        return MultiStream.from_iterables(streams, copying=True)


def _subsets_mean(node: Any) -> Optional[Dict[str, Any]]:
    """A subsets tree with every inner node scored as the NaN-ignoring mean of its children ("subsets_mean") and
    their instance counts summed; leaves are global scores (they have score and score_name)."""
    if not isinstance(node, dict):
        return None
    if "score" in node and "score_name" in node:
        return node
    result: Dict[str, Any] = {}
    scores, counts = [], []
    for key, child in node.items():
        scored = _subsets_mean(child)
        if scored is not None:
            result[key] = scored
            scores.append(scored["score"])
            if "num_of_instances" in scored:
                counts.append(scored["num_of_instances"])
    result["score"] = nan_mean(scores)
    result["score_name"] = "subsets_mean"
    if counts:
        result["num_of_instances"] = sum(counts)
    return result


def _place(scores: Dict[str, Any], subset: str, group: Optional[str], global_score: Dict[str, Any]) -> None:
    if not subset and not group:
        scores["global"] = global_score
        return
    path: List[Any] = ["subsets", *subset.split("/")] if subset else []
    if group:
        key, value = group_key_value(group)
        path += ["groups", key, value]
    target = scores
    for part in path[:-1]:
        target = target.setdefault(part, {})
    target[path[-1]] = global_score


class JoinSubsetsAndGroups(MultiStreamOperator):
    """The inverse of SplitSubsetsAndGroups once each stream is scored: one stream per split, instances in their
    original order, each carrying the split's global scores with the subsets and groups scores under them."""

    def process(self, multi_stream: MultiStream) -> MultiStream:
        instances: Dict[str, Dict[int, Dict[str, Any]]] = defaultdict(dict)
        scores: Dict[str, Dict[str, Any]] = defaultdict(dict)
        for stream_name, stream in multi_stream.items():
            origin, subset, group = stream_origin_subset_group(stream_name)
            for position, instance in enumerate(stream):
                global_score = instance["score"].pop("global")
                instances[origin].setdefault(instance.pop("__idx__"), instance)
                if position == 0:  # every instance of a stream carries the same global score
                    _place(scores[origin], subset, group, global_score)
        result = {}
        for origin, by_index in instances.items():
            score = scores[origin]
            if "subsets" in score:
                subsets = score["subsets"] = _subsets_mean(score["subsets"])
                score["global"] = {"score": subsets["score"], "score_name": subsets["score_name"],
                                   "subsets_mean": subsets["score"]}
                if "num_of_instances" in subsets:
                    score["global"]["num_of_instances"] = subsets["num_of_instances"]
            result[origin] = []
            for index in sorted(by_index):
                by_index[index]["score"].update(recursive_copy(score))
                result[origin].append(by_index[index])
        return MultiStream.from_iterables(result, copying=True)


__all__ = ["DEFAULT_STREAM_NAME", "DEFAULT_STREAM_SUBSET_SEPARATOR", "nan_mean", "EmptyPrediction",
           "empty_predictions_generator", "SplitSubsetsAndGroups", "JoinSubsetsAndGroups"]
