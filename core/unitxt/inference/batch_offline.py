"""The offline round trip of unitxt-evaluate (`--batch-file-out`, `--batch-file-in`): a recipe's requests written as
a batch input file, answered anywhere that reads the format (a provider's batch UI, `vllm run-batch`), read back.

Each row's custom_id is `row-<index>-<digest>`, the digest taken from the row's request (its cache key: the model,
the settings and the input), so an output file answers only the requests it was made for: a file of another run, of
other rows or of other settings is refused before anything is cached.
"""

import os
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

from .base import InferenceError, TextGenerationInferenceOutput, rows_of
from .batch_files import BatchError, OutputFile, failed_rows_message, line_answer, request_line
from ..general.new_files import publish_new_file

DIGEST_CHARS = 16


def _provider_engine(engine: Any) -> Any:
    """The engine that speaks the protocol (a CrossProviderInferenceEngine's provider engine)."""
    return engine.engine() if hasattr(engine, "provider_model_name") else engine


def _checked_rows(engine: Any, dataset: Any) -> Tuple[Any, List[Dict[str, Any]], list]:
    engine = _provider_engine(engine)
    if not hasattr(engine, "request_body") or not hasattr(engine, "read_answer"):
        raise BatchError(f"{type(engine).__name__} does not speak the OpenAI protocol; batch files need an "
                         f"OpenAI-protocol engine (OpenAiInferenceEngine, VLLMRemoteInferenceEngine, ...).")
    rows = rows_of(dataset)
    engine.check_policy(rows)
    inputs = [engine.request_input(row, index) for index, row in enumerate(rows)]
    engine.before_infer(rows)
    return engine, rows, inputs


def row_custom_ids(engine: Any, inputs: list, rows: List[Dict[str, Any]], log_probs: bool) -> Tuple[List[str], list]:
    """(the custom_id of each row, the cache key of each row)."""
    keys = engine.request_keys(inputs, rows, "log_probs" if log_probs else "generate")
    return [f"row-{index}-{key[:DIGEST_CHARS]}" for index, key in enumerate(keys)], keys


def write_batch_input(engine: Any, dataset: Any, path: str, log_probs: bool = False) -> int:
    """Write one request line per row to a new file at `path` (never over an existing file or link: written
    privately, then published, as results files are); the number of lines. The rows pass the data policy first."""
    engine, rows, inputs = _checked_rows(engine, dataset)
    url = engine.batch_url()
    ids, _ = row_custom_ids(engine, inputs, rows, log_probs)
    text = b"".join(request_line(custom_id, url, engine.request_body(item, log_probs))
                    for custom_id, item in zip(ids, inputs)).decode("utf-8")
    target = Path(os.path.abspath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(target) or not publish_new_file(text, target):
        raise BatchError(f"The batch input file {path!r} already exists (or is a link); a batch file is never "
                         f"overwritten: name a new file.", field="--batch-file-out")
    return len(inputs)


def read_batch_output(engine: Any, dataset: Any, paths: Iterable[str], log_probs: bool = False
                      ) -> List[TextGenerationInferenceOutput]:
    """The answers of output files (and error files) produced elsewhere, in row order, matched by custom_id; each is
    checked as a live answer and stored in the engine's cache (the entry a live request of that row would have).
    A file naming a custom_id that is not one of these rows' requests is refused before anything is cached; rows
    without a good answer (also those of unreadable or duplicated lines): a BatchError naming every one, the good
    answers kept."""
    engine, rows, inputs = _checked_rows(engine, dataset)
    ids, keys = row_custom_ids(engine, inputs, rows, log_probs)
    index_of = {custom_id: index for index, custom_id in enumerate(ids)}
    files: List[Tuple[str, Any]] = []
    try:
        for path in [paths] if isinstance(paths, str) else paths:
            try:
                stream = open(path, "rb")
            except OSError as error:
                raise BatchError(f"Can not read the batch output file {path!r}: {error}", field="--batch-file-in") \
                    from None
            files.append((path, stream))
        scanned = [OutputFile(stream, f"The batch output file {path!r}") for path, stream in files]
        for (path, _), output in zip(files, scanned):
            unknown = [custom_id for custom_id in output.lines if custom_id not in index_of]
            if unknown:
                raise BatchError(f"The batch output file {path!r} names {len(unknown)} custom_id(s) that are not "
                                 f"requests of these {len(rows)} rows with these settings (e.g. "
                                 f"{', '.join(repr(u) for u in unknown[:5])}): it was made for another run, other "
                                 f"rows or another model; nothing was read. Write the requests with --batch-file-out "
                                 f"of this same command.", field="custom_id")
        return _file_answers(engine, inputs, keys, index_of, scanned, log_probs)
    finally:
        for _, stream in files:
            stream.close()


def _file_answers(engine: Any, inputs: list, keys: List[str], index_of: Dict[str, int], scanned: List[OutputFile],
                  log_probs: bool) -> List[TextGenerationInferenceOutput]:
    cache = engine._cache()
    outputs: List[Optional[TextGenerationInferenceOutput]] = [None] * len(inputs)
    failures: Dict[int, str] = {}
    twice: Dict[int, str] = {}
    for output in scanned:
        for custom_id, numbers in output.duplicates.items():
            twice[index_of[custom_id]] = f"{len(numbers)} lines of {output.where} have this custom_id; none used"
        for custom_id, record in output.records():
            index = index_of[custom_id]
            body, reason = line_answer(record)
            if body is None:
                failures.setdefault(index, reason)
                continue
            if outputs[index] is not None:
                twice[index] = "two files answer this custom_id; neither answer used"
                continue
            try:
                outputs[index] = engine.read_answer(body, inputs[index], log_probs)
            except InferenceError as error:
                failures[index] = error.message
    for index in twice:  # an answer given twice is nobody's: not used, not cached
        outputs[index] = None
        failures[index] = twice[index]
    for index, output in enumerate(outputs):
        if output is not None:
            failures.pop(index, None)
            if cache is not None:
                cache.put(keys[index], output.to_dict())
        elif index not in failures:
            failures[index] = "no line with this custom_id in the output file"
    if cache is not None:
        cache.flush()
    problems = [text for text in (output.problems() for output in scanned) if text]
    if failures:
        message = failed_rows_message(failures, len(inputs), len(inputs) - len(failures))
        if problems:
            message += " " + "; ".join(problems) + "."
        error = BatchError(message, artifact=engine.artifact_name)
        error.answers = [output.prediction if output is not None else None for output in outputs]
        error.failed_rows = sorted(failures)
        raise error
    return outputs

