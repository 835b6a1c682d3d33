"""LLM judges on criteria as metrics: LLMJudgeDirect (one option of a criteria per prediction) and LLMJudgePairwise
(responses compared pair by pair); the template judges are in template_judges.

A criteria judge sends prompts to an inference engine (its cache and concurrency apply: all prompts of a stage go
in one `infer` call), parses the chosen option and scores it. An answer it cannot parse scores NaN for that
instance, with one warning counting them; the evaluation goes on.
"""

import math
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from ..artifact import InertField
from ..errors import MetricError, UnitxtError
from ..inference.base import InferenceEngine, mock_mode
from ..logging_utils import get_logger
from ..metrics.base import BulkInstanceMetric, MetricScores
from ..rendering.row_json import task_data_policy
from .constants import Criteria, CriteriaWithOptions
from .operators import criteria_from_value
from .prompts import (
    Messages,
    competition_ranking,
    direct_assessment_prompt,
    pairwise_assessment_prompt,
    parse_option,
    response_option,
    summary_prompt,
    user_turn,
    verdict_conversation,
)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False, default=str)


def _last_turn(echo: str) -> str:
    """Under mock mode an engine echoes its chat messages as their Python text: the last message's content (the
    request being answered), or the echo itself when it is plain text."""
    if echo.startswith("[{"):
        import ast

        try:
            messages = ast.literal_eval(echo)  # literals only, never code
            return str(messages[-1]["content"])
        except (ValueError, SyntaxError, TypeError, KeyError, IndexError, MemoryError, RecursionError):
            return echo
    return echo


def _is_empty_prediction(prediction: Any) -> bool:
    """The placeholder of an evaluation run without predictions (itself, or its text after post-processing)."""
    from ..evaluation.subset_streams import EmptyPrediction

    return isinstance(prediction, EmptyPrediction) or prediction == str(EmptyPrediction())


NO_PREDICTIONS = ("You must set either the predictions in the evaluate() call or specify the prediction field name to "
                  "be taken from the task_data using the `Criteria`'s prediction_field field.")


def _criteria_json(criteria: Criteria) -> str:
    """The criteria as JSON (its type and fields, no catalog description or tags), as the original reports it."""
    import json

    data = {key: value for key, value in criteria.to_dict().items() if key not in ("__description__", "__tags__")}
    return json.dumps(data, indent=4, ensure_ascii=False, default=str)


class LLMJudge(BulkInstanceMetric):
    """Shared settings of criteria judges: the engine, the criteria (fixed, or per instance from task_data
    `criteria_field`), the task fields shown as context, and what to report."""

    __abstract__ = True

    inference_engine: InferenceEngine
    criteria: Optional[Criteria] = None
    criteria_field: Optional[str] = None
    context_fields: Optional[Union[str, List[str], Dict[str, str]]] = None
    evaluator_name: Optional[str] = None
    check_positional_bias: bool = True
    include_prompts_in_result: bool = True
    format: Any = InertField(default="formats.chat_api", reason="the judge builds its own prompts here")
    generate_summaries: bool = False
    main_score: str = "llm_as_judge"
    batch_size: int = 1_000_000  # judge prompts of a stage go to the engine together (its concurrency applies)

    def prepare(self) -> None:
        super().prepare()
        if "main_score" not in self._given_fields and self.__dict__.get("criteria") is not None:
            criteria = self.criteria  # a catalog name resolves here
            if isinstance(criteria, Criteria):
                self.__dict__["main_score"] = "_".join(criteria.name.lower().split(" "))  # as the original

    def resolved_ci_scores(self) -> List[str]:
        return list(self.ci_scores) if self.ci_scores is not None else [self.main_score]

    def evaluator_label(self) -> str:
        """`<evaluator>_<engine kind>` (lower case), the suffix of the original's `<main>_using_...` score."""
        evaluator = self.evaluator_name or self.inference_engine.get_engine_id()
        evaluator = getattr(evaluator, "value", evaluator)  # an EvaluatorNameEnum member
        engine = self.inference_engine
        label = getattr(engine, "label", None) or getattr(engine, "_inference_type", type(engine).__name__)
        return f"{str(evaluator).lower()}_{label}"

    # ------------------------------------------------------------------ inputs
    def criteria_of(self, task_data: Dict[str, Any], index: int) -> Criteria:
        if self.criteria is not None:  # a criteria given to the judge applies to every instance (as the original)
            return self.criteria
        if self.criteria_field is not None:
            if self.criteria_field not in task_data:
                raise MetricError(f"Instance {index} has no task_data field '{self.criteria_field}' (criteria_field); "
                                  f"it has {sorted(task_data)}.", artifact=self.artifact_name, field="criteria_field")
            return criteria_from_value(task_data[self.criteria_field], self.criteria_field)
        if self.criteria is None:
            raise MetricError(f"{type(self).__name__} needs a criteria: set `criteria` (e.g. "
                              f"criteria=metrics.llm_as_judge.direct.criteria.answer_relevance) or `criteria_field`.",
                              artifact=self.artifact_name, field="criteria")
        return self.criteria

    def get_criteria(self, task_data: List[Dict[str, Any]], eval_count: int) -> List[Criteria]:
        """The criteria of each of the `eval_count` evaluations: the judge's `criteria` for all, else each instance's
        task_data[criteria_field] (a criteria, its dict or JSON, or a catalog name)."""
        if self.criteria is not None:
            return [self.criteria] * eval_count
        return [self.criteria_of(data, index) for index, data in enumerate(task_data[:eval_count])]

    @staticmethod
    def get_context_fields_as_dict(context_fields: Union[str, List, Dict, None]) -> Dict[str, str]:
        """Context fields as {name shown to the judge: task_data path} (a name or a list of names map to
        themselves; None is no field)."""
        fields = context_fields or {}
        if isinstance(fields, str):
            fields = [fields]
        return dict(fields) if isinstance(fields, dict) else {name: name for name in fields}

    def get_contexts(self, task_data: List[Dict[str, Any]], criteria: List[Criteria]) -> List[Dict[str, str]]:
        """Per instance, the context shown to the judge: the judge's `context_fields`, else its criteria's, read from
        task_data (a non-text value as JSON)."""
        return [self.context_of(criterion, data, index)
                for index, (data, criterion) in enumerate(zip(task_data, criteria))]

    def get_predictions(self, task_data: List[Dict[str, Any]], criteria: List[Criteria], predictions: List[Any]
                        ) -> List[Any]:
        """The judged texts: the predictions, or when evaluated without predictions each instance's task_data field
        named by its criteria's `prediction_field` (an error when it names none)."""
        from ..dict_utils import dict_get

        if predictions and not all(_is_empty_prediction(prediction) for prediction in predictions):
            return predictions
        taken = []
        for data, criterion in zip(task_data, criteria):
            field = criterion.prediction_field
            if field is None or field not in data:
                raise MetricError(NO_PREDICTIONS, artifact=self.artifact_name, field="prediction_field")
            taken.append(dict_get(data, field))
        return taken

    def clean_results(self, results: Union[dict, list]) -> Union[dict, list]:
        """Results without None values and empty lists or dicts (nested dicts too), as the judge reports them."""
        if isinstance(results, list):
            return [self.clean_results(result) for result in results]
        cleaned = {key: self.clean_results(value) if isinstance(value, dict) else value
                   for key, value in results.items()
                   if value is not None and not (isinstance(value, (list, dict)) and not value)}
        return {key: value for key, value in cleaned.items() if not (isinstance(value, dict) and not value)}

    def context_of(self, criteria: Criteria, task_data: Dict[str, Any], index: int) -> Dict[str, str]:
        from ..dict_utils import dict_get

        fields = self.context_fields if self.context_fields is not None else (criteria.context_fields or [])
        named = self.get_context_fields_as_dict(fields)
        context = {}
        for label, path in named.items():
            try:
                context[label] = _text(dict_get(task_data, path))
            except UnitxtError:
                raise MetricError(f"Context field '{path}' is missing from instance {index} (task_data has "
                                  f"{sorted(task_data)}).", artifact=self.artifact_name,
                                  field="context_fields") from None
        return context

    @staticmethod
    def read_option(answer: Any, names: List[str]) -> Optional[str]:
        """The option a verdict names. Under settings.mock_inference_mode the engine echoes its prompt, and the
        judge settles, as the original's does, on the option closest (difflib) to the echo's last line: the verdict
        request listing the options, so the mock verdict does not depend on the judged text."""
        chosen = parse_option(answer, names)
        if chosen is None and mock_mode() and isinstance(answer, str) and answer.strip() and names:
            from difflib import get_close_matches

            echoed = _last_turn(answer)
            chosen = get_close_matches(echoed.strip().splitlines()[-1] if echoed.strip() else echoed, names, n=1,
                                       cutoff=0.0)[0]
        return chosen

    def ask(self, prompts: List[Messages], policies: List[Any]) -> List[str]:
        """One engine call for all prompts (chat messages) of a stage (each row carries its instance's data
        classification), through perform_evaluation_step."""
        if not prompts:
            return []
        rows = [{"source": prompt, **({"data_classification_policy": policy} if policy else {})}
                for prompt, policy in zip(prompts, policies)]
        return [_text(answer) for answer in self.perform_evaluation_step(rows, None, None)[2]]

    def perform_evaluation_step(self, instances: List[Dict[str, Any]], task: Any = None, template: Any = None,
                                previous_messages: Optional[List[Dict[str, str]]] = None
                                ) -> Tuple[List[Any], List[Any], List[Any]]:
        """One step of the judge (assessment, option selection or summary) over all instances: (prompts, raw
        predictions, predictions). Instances here carry their prompt as chat messages in "source" (the judge builds
        its prompts itself, so `task` and `template` are not used); `previous_messages` go before each prompt."""
        if previous_messages:
            instances = [dict(instance, source=list(previous_messages) + list(instance["source"]))
                         for instance in instances]
        answers = list(self.inference_engine.infer(instances))
        return [instance["source"] for instance in instances], answers, list(answers)

    def forget(self, prompts: List[Messages]) -> None:
        """Drop the cached answers to these prompts (verdicts that could not be read are asked again next run)."""
        if prompts:
            self.inference_engine.forget_answers([{"source": prompt} for prompt in prompts])

    def warn_unparsed(self, unparsed: int, total: int, expected: List[str]) -> None:
        if unparsed:
            get_logger().warning(f"{type(self).__name__} ({self.artifact_name}): {unparsed} of {total} judge answers "
                                 f"could not be parsed into one of {expected}; their scores are NaN (raw answers in "
                                 f"{self.main_score}_raw_verdict; not cached, so a rerun asks again).")


class LLMJudgeDirect(LLMJudge):
    """Rates each prediction on a criteria with options: an assessment, then one option, scored by option_map.

    Per instance, in the original's shape: the score (also as `<main>_using_<evaluator>_<engine kind>`),
    `<main>_selected_option`, `<main>_assessment`, `<main>_option_selection_completion` (the verdict answer),
    `<main>_positional_bias` (True when the options asked again in reverse order led to another choice) with its
    `_selected_option`, `_assessment` and `_option_selection_completion`, the criteria as JSON, optional summary and
    prompts. Global: the mean score with CI.
    """

    prediction_type = Any  # as the original: any value (a non-text one is shown as JSON), or EmptyPrediction when
    # evaluated without predictions (then read from task_data)

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]
                ) -> List[Dict[str, Any]]:
        plans = []
        criteria_list = self.get_criteria(task_data, len(task_data))
        predictions = self.get_predictions(task_data, criteria_list, predictions)
        contexts = self.get_contexts(task_data, criteria_list)
        for index, (prediction, data) in enumerate(zip(predictions, task_data)):
            criteria, context = criteria_list[index], contexts[index]
            if not isinstance(criteria, CriteriaWithOptions):
                raise MetricError(f"Criteria '{criteria.name}' has no options; LLMJudgeDirect needs a "
                                  f"CriteriaWithOptions.", artifact=self.artifact_name, field="criteria")
            options = [(option.name, option.description) for option in criteria.options]
            field = criteria.prediction_field or "response"
            orders = [options, list(reversed(options))] if self.check_positional_bias else [options]
            prompts = [user_turn(direct_assessment_prompt(criteria.name, criteria.description, order, context,
                                                          field, _text(prediction))) for order in orders]
            plans.append((criteria, orders, prompts, task_data_policy(data)))
        names = {plan[0].name for plan in plans}
        if "main_score" not in self._given_fields and self.criteria is None and plans:
            # criteria read per instance: the criteria's name when all share one, as the original
            name = next(iter(names))
            self.__dict__["main_score"] = "_".join(name.lower().split(" ")) if len(names) == 1 and name \
                else "llm_as_judge"
        main = self.main_score
        flat = [(i, k) for i, plan in enumerate(plans) for k in range(len(plan[1]))]
        policies = [plans[i][3] for i, _ in flat]
        assessments = self.ask([plans[i][2][k] for i, k in flat], policies)
        verdict_prompts = [verdict_conversation(plans[i][2][k], assessment, [name for name, _ in plans[i][1][k]])
                           for (i, k), assessment in zip(flat, assessments)]
        verdicts = self.ask(verdict_prompts, policies)
        summaries = self.ask([summary_prompt(assessments[p]) for p, (i, k) in enumerate(flat) if k == 0],
                             [plans[i][3] for i, k in flat if k == 0]) if self.generate_summaries else []
        by_instance: Dict[int, List[int]] = {}
        for position, (i, _) in enumerate(flat):
            by_instance.setdefault(i, []).append(position)
        results, unparsed, forgotten = [], 0, []
        for i, (criteria, orders, prompts, _) in enumerate(plans):
            positions = by_instance[i]
            names = criteria.option_names()
            chosen = [self.read_option(verdicts[p], names) for p in positions]
            first = chosen[0]
            unparsed += first is None
            forgotten += [verdict_prompts[p] for p, choice in zip(positions, chosen) if choice is None]
            score = criteria.score_of(first) if first is not None else math.nan
            result: Dict[str, Any] = {main: score, f"{main}_using_{self.evaluator_label()}": score,
                                      f"{main}_selected_option": first,
                                      f"{main}_assessment": assessments[positions[0]]}
            if self.check_positional_bias:
                again = chosen[1]
                result[f"{main}_positional_bias"] = None if first is None or again is None else first != again
                result[f"{main}_positional_bias_selected_option"] = again
                result[f"{main}_positional_bias_assessment"] = assessments[positions[1]]
            result[f"{main}_option_selection_completion"] = verdicts[positions[0]]
            if self.check_positional_bias:
                result[f"{main}_positional_bias_option_selection_completion"] = verdicts[positions[1]]
            if first is None:
                result[f"{main}_raw_verdict"] = verdicts[positions[0]]
            if self.generate_summaries:
                result[f"{main}_summary"] = summaries[i]
            if self.include_prompts_in_result:  # the original's keys (its "posional" spelling included)
                shown = {"assessment": prompts[0]}
                if self.check_positional_bias:
                    shown["positional_bias_assessment"] = prompts[1]
                shown["option_selection"] = verdict_prompts[positions[0]]
                if self.check_positional_bias:
                    shown["posional_bias_option_selection"] = verdict_prompts[positions[1]]
                result[f"{main}_prompts"] = shown
            result[f"{main}_criteria"] = _criteria_json(criteria)
            if self.score_prefix:  # older releases' keys, which programs read as <prefix>llm_as_a_judge_score
                result["llm_as_a_judge_score"] = score
                if self.check_positional_bias:
                    result["positional_bias"] = result[f"{main}_positional_bias"]
            results.append(result)
        self.forget(forgotten)
        self.warn_unparsed(unparsed, len(plans), sorted({n for plan in plans for n in plan[0].option_names()}))
        return self.clean_results(results)

    def resolved_reduction_map(self) -> Dict[str, List[str]]:
        return self.reduction_map if self.reduction_map is not None else {"mean": [self.main_score]}  # as the original


def _systems(prediction: Any, index: int, metric: "LLMJudgePairwise") -> List[Tuple[str, str]]:
    if isinstance(prediction, str):  # a template's post-processors may have turned the list/dict into its text
        import ast
        import json

        for parse in (json.loads, ast.literal_eval):  # literal_eval reads literals only, never code
            try:
                prediction = parse(prediction)
                break
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
    if isinstance(prediction, dict):
        systems = [(str(name), _text(value)) for name, value in prediction.items()]
    elif isinstance(prediction, (list, tuple)):
        systems = [(f"{k + 1}", _text(value)) for k, value in enumerate(prediction)]  # "1_winrate"... as the original
    else:
        raise MetricError(f"Prediction {index} of a pairwise judge must be a list of responses or a dict "
                          f"{{system name: response}} (or its JSON text), got {type(prediction).__name__}.",
                          artifact=metric.artifact_name, field="prediction")
    if len(systems) < 2:
        raise MetricError(f"Prediction {index} has {len(systems)} response(s); a pairwise judge compares two or more.",
                          artifact=metric.artifact_name, field="prediction")
    return systems


class _Contest(NamedTuple):
    """One comparison as asked: the assessment prompt and answer, the verdict prompt and answer, the winner's index."""

    prompt: Messages
    assessment: str
    verdict_prompt: Messages
    verdict: str
    winner: Optional[int]


_PER_SYSTEM_LISTS = ("contest_results", "selections", "compared_to", "assessments", "positional_bias_assessments",
                     "option_selection_outputs", "positional_bias", "positional_bias_selection")
_PROMPT_KINDS = ("assessment", "positional_bias_assessment", "option_selection", "positional_bias_option_selection")


class LLMJudgePairwise(LLMJudge):
    """Compares the responses of each instance pair by pair (a prediction is a list of responses, or a dict
    {system: response}; list entries are systems "1", "2", ... as in the original). Per system, in the original's
    shape: `<system>_winrate` (share of its comparisons won), `<system>_ranking` (1 = best, ties share the best rank),
    `<system>_compared_to`, `<system>_contest_results`, `<system>_positional_bias` (per comparison: the verdict
    flipped when the two responses were swapped) and the judge's texts (see `_system_results`). The main score is
    the first system's winrate ("1_winrate"; set on each evaluation, as the original); globally each system's mean
    winrate.
    """

    prediction_type = Any  # a list or dict of responses (or its JSON / literal text); checked per instance
    main_score: str = "1_winrate"

    def prepare(self) -> None:
        BulkInstanceMetric.prepare(self)  # the main score is not the criteria's name: it is set per evaluation

    def compute(self, references: List[List[Any]], predictions: List[Any], task_data: List[Dict[str, Any]]
                ) -> List[Dict[str, Any]]:
        plans, prompts, policies, owners = [], [], [], []
        criteria_list = self.get_criteria(task_data, len(task_data))
        predictions = self.get_predictions(task_data, criteria_list, predictions)
        contexts = self.get_contexts(task_data, criteria_list)
        for index, (prediction, data) in enumerate(zip(predictions, task_data)):
            criteria, context = criteria_list[index], contexts[index]
            systems = _systems(prediction, index, self)
            field = criteria.prediction_field or "response"
            pairs = [(a, b) for a in range(len(systems)) for b in range(a + 1, len(systems))]
            for a, b in pairs:
                orders = [(a, b), (b, a)] if self.check_positional_bias else [(a, b)]
                for first, second in orders:
                    prompts.append(user_turn(pairwise_assessment_prompt(
                        criteria.name, criteria.description, context, field, systems[first], systems[second])))
                    policies.append(task_data_policy(data))
                    owners.append((index, first, second))
            plans.append((criteria, systems, pairs))
        assessments = self.ask(prompts, policies)
        options = [[response_option(plans[index][1][first][0]), response_option(plans[index][1][second][0])]
                   for index, first, second in owners]
        verdict_prompts = [verdict_conversation(prompt, assessment, names)
                           for prompt, assessment, names in zip(prompts, assessments, options)]
        verdicts = self.ask(verdict_prompts, policies)
        contests: Dict[Tuple[int, int, int], _Contest] = {}
        for owner, prompt, assessment, v_prompt, verdict, names in zip(owners, prompts, assessments, verdict_prompts,
                                                                       verdicts, options):
            index, first, second = owner
            choice = self.read_option(verdict, names)
            if choice is None:  # the bare response name ("system_a") names the option too
                bare = parse_option(verdict, [name[len("Response "):] for name in names])
                choice = None if bare is None else response_option(bare)
            winner = None if choice is None else (first if choice == names[0] else second)
            contests[owner] = _Contest(prompt, assessment, v_prompt, verdict, winner)
        if plans:  # the first system's winrate, as the original (the name comes from the first prediction)
            self.__dict__["main_score"] = f"{plans[0][1][0][0]}_winrate"
        results, unparsed, total = [], 0, 0
        for index, (criteria, systems, pairs) in enumerate(plans):
            unparsed += sum(contests[(index, a, b)].winner is None for a, b in pairs)
            total += len(pairs)
            results.append(self._system_results(criteria, systems, pairs, index, contests))
        self.forget([contest.verdict_prompt for contest in contests.values() if contest.winner is None])
        self.warn_unparsed(unparsed, total, ["Response <name> of either response"])
        return self.clean_results(results)

    def _system_results(self, criteria: Criteria, systems: List[Tuple[str, str]], pairs: List[Tuple[int, int]],
                        index: int, contests: Dict[Tuple[int, int, int], "_Contest"]) -> Dict[str, Any]:
        """The original's per-system keys: `<system>_winrate` (also as `<system>_llm_as_judge`), `_ranking`,
        `_contest_results`, `_selections`, `_compared_to`, `_assessments`, `_option_selection_outputs`, with
        positional bias `_positional_bias` (per comparison), `_positional_bias_assessments` /
        `_positional_bias_selection`, optional `_prompts`, `_response_name`; and the criteria as JSON."""
        n = len(systems)
        per: List[Dict[str, Any]] = [{key: [] for key in _PER_SYSTEM_LISTS} for _ in range(n)]
        for row in per:
            row["prompts"] = {key: [] for key in _PROMPT_KINDS}
        wins, counted = [0] * n, [0] * n
        for a, b in pairs:
            contest = contests[(index, a, b)]
            swapped = contests.get((index, b, a)) if self.check_positional_bias else None
            selected = None if contest.winner is None else systems[contest.winner][0]
            for me, other in ((a, b), (b, a)):
                row = per[me]
                row["contest_results"].append(None if contest.winner is None else contest.winner == me)
                row["selections"].append(selected)
                row["compared_to"].append(systems[other][0])
                row["assessments"].append(contest.assessment)
                row["option_selection_outputs"].append(contest.verdict)
                if self.include_prompts_in_result:
                    row["prompts"]["assessment"].append(contest.prompt)
                    row["prompts"]["option_selection"].append(contest.verdict_prompt)
                if swapped is not None:
                    row["positional_bias_assessments"].append(swapped.assessment)
                    row["positional_bias_selection"].append(swapped.verdict)
                    row["positional_bias"].append(contest.winner is not None and swapped.winner is not None
                                                  and swapped.winner != contest.winner)
                    if self.include_prompts_in_result:
                        row["prompts"]["positional_bias_assessment"].append(swapped.prompt)
                        row["prompts"]["positional_bias_option_selection"].append(swapped.verdict_prompt)
                if contest.winner is not None:
                    counted[me] += 1
                    wins[me] += contest.winner == me
        winrates = [wins[k] / counted[k] if counted[k] else math.nan for k in range(n)]
        ranks = competition_ranking(winrates)
        result: Dict[str, Any] = {}
        for k, (name, _) in enumerate(systems):
            for key, value in per[k].items():
                if key == "prompts":
                    value = {kind: prompts for kind, prompts in value.items() if prompts}
                if value:  # empty lists / dicts are left out, as the original
                    result[f"{name}_{key}"] = value
            result[f"{name}_winrate"] = winrates[k]
            result[f"{name}_llm_as_judge"] = winrates[k]
            result[f"{name}_ranking"] = ranks[k] if math.isnan(ranks[k]) else int(ranks[k])
            result[f"{name}_response_name"] = name
        result["criteria"] = _criteria_json(criteria)
        return result

    def scores_from_instances(self, instance_scores: List[Dict[str, Any]]) -> MetricScores:
        if self.reduction_map is None:
            names = [self.main_score]  # and every system's winrate (the original's reduction)
            for scores in instance_scores:
                names += [key for key, value in scores.items() if key.endswith("_winrate")
                          and isinstance(value, (int, float)) and key not in names]
            self.__dict__["reduction_map"] = {"mean": names}
            try:
                return super().scores_from_instances(instance_scores)
            finally:
                self.__dict__["reduction_map"] = None
        return super().scores_from_instances(instance_scores)
