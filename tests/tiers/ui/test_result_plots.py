"""results.plot(): matplotlib panels whose bars and whiskers are the results' scores and CIs."""

from tests.evaluation.test_paired_comparison import HALF_RIGHT, ROWS
from unitxt import evaluate


def test_plot_draws_scores_with_cis_per_group_and_a_confusion_matrix(tmp_path):
    results = evaluate(HALF_RIGHT, ROWS)
    figure = results.plot(str(tmp_path / "scores.png"))
    assert (tmp_path / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    global_axis, group_axis, confusion_axis = figure.axes[:3]
    labels = [label.get_text() for label in global_axis.get_yticklabels()]
    widths = [bar.get_width() for bar in global_axis.patches]
    assert dict(zip(labels, widths)) == {name: results.global_scores[name] for name in labels}
    assert group_axis.get_title() == "By domain"
    group_labels = [label.get_text() for label in group_axis.get_yticklabels()]
    key = "domain"
    assert [bar.get_width() for bar in group_axis.patches] == [results.groups_scores[key][value]["score"]
                                                                 for value in group_labels]
    from matplotlib.container import ErrorbarContainer

    errorbars = next(c for c in group_axis.containers if isinstance(c, ErrorbarContainer))
    whiskers = errorbars.lines[2][0].get_segments()
    for value, segment in zip(group_labels, whiskers):
        scores = results.groups_scores[key][value]
        assert [point[0] for point in segment] == [scores["score_ci_low"], scores["score_ci_high"]]
    assert confusion_axis.get_title() == "Confusion matrix"
    assert confusion_axis.images[0].get_array().tolist()[0] == [
        sum(1 for p, label in zip(HALF_RIGHT, [r["target"] for r in ROWS]) if label == "bird" and p == other)
        for other in ("bird", "cat", "dog", "fish")]
