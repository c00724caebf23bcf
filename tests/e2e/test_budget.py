"""`--max-budget-usd`: the turn ends once the estimated cost reaches the limit."""

from __future__ import annotations

from tests.conftest import Project
from tests.fakeapi import Reply, text, tool_use

#: 1000 input tokens of the default model (opus, $4 per million): $0.004 an answer.
USAGE = {"input_tokens": 1000, "output_tokens": 0}


def _touching(project: Project, *names: str) -> None:
    project.api.script(*[Reply([tool_use("Bash", {"command": f"touch {n}"})], usage=USAGE)
                         for n in names], Reply([text("done")], usage=USAGE))


def test_the_answer_that_reaches_the_budget_ends_the_turn_before_its_calls(
        project: Project) -> None:
    _touching(project, "one", "two", "three")
    run = project.run("-p", "touch them", "--allowedTools", "Bash", "--max-budget-usd", "0.01",
                      "--output-format", "json")
    assert run.returncode == 1, run.stderr
    result = run.json()
    assert result["subtype"] == "error_max_budget_usd"
    assert result["terminal_reason"] == "budget_exhausted"
    assert result["is_error"] is True and "result" not in result
    assert "0.01" in result["errors"][0]
    assert result["total_cost_usd"] >= 0.01
    assert result["num_turns"] == 3 and result["stop_reason"] == "tool_use"
    # Two answers ($0.008) stay under the limit and their calls run; the third's never does.
    assert (project.root / "one").exists() and (project.root / "two").exists()
    assert not (project.root / "three").exists()
    assert len(project.api.bodies) == 3
    project.api.assert_clean()


def test_a_final_answer_over_the_budget_is_an_error_too_and_text_mode_says_so(
        project: Project) -> None:
    project.api.script(Reply([text("done")], usage=USAGE))
    run = project.run("-p", "hi", "--max-budget-usd", "0.002")
    assert run.returncode == 1
    assert run.stdout == "Error: Exceeded USD budget (0.002)\n"


def test_under_the_budget_nothing_changes(project: Project) -> None:
    _touching(project, "one")
    run = project.run("-p", "go", "--allowedTools", "Bash", "--max-budget-usd", "5",
                      "--output-format", "json")
    assert run.returncode == 0, run.stderr
    assert run.json()["subtype"] == "success" and run.json()["result"] == "done"


def test_a_budget_that_is_not_a_positive_number_is_refused(project: Project) -> None:
    for value in ("abc", "0", "-1"):
        run = project.run("-p", "hi", "--max-budget-usd", value)
        assert run.returncode == 1
        assert "--max-budget-usd" in run.stderr and value in run.stderr
    assert project.api.bodies == []
