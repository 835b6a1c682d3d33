"""Catalog: dialog-level metrics (metrics.multi_turn.*): accuracy of each assistant turn, reduced per dialog (the
mean, or the share of turns that succeed before the first failure) and then averaged over dialogs."""

from _factory import make

TAGS = {"kind": "metric", "family": "multi_turn"}


def register(add):
    add("metrics.multi_turn.accuracy", make(
        "multi_turn_metric", metric=make("accuracy_fast"), tags=TAGS,
        description="Accuracy of each assistant turn, averaged per dialog (task_data conversation/id), then over "
                    "dialogs."))
    add("metrics.multi_turn.sequential_success_accuracy", make(
        "multi_turn_metric", metric=make("accuracy_fast"), in_group_reduction=make("sequential_success"),
        score_prefix="sequential_success_", tags=TAGS,
        description="Per dialog, the share of its assistant turns that are correct before the first wrong one (in "
                    "turn order); averaged over dialogs."))
