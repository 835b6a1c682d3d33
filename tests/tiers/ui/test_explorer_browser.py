"""The explorer driven in headless Chromium as a user drives it (issue 18): compose a recipe, read the prompts and
code the page shows, get a clear message for an incompatible template, and browse the catalog."""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from unitxt import load_dataset

CARD = "cards.demo.sentiment"
TEMPLATE = "templates.key_val"


def wait_for(condition, timeout=30.0, message="condition"):
    deadline = time.time() + timeout
    last_error = None
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:  # noqa: BLE001 - elements re-render while Gradio updates them
            last_error = error
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {message} (last error: {last_error})")


def pick(driver, element_id, value):
    """Open a Gradio dropdown, type to filter, and click the option with exactly this value."""
    box = driver.find_element(By.CSS_SELECTOR, f"#{element_id} input[role=combobox]")
    box.click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(value)
    option = wait_for(lambda: driver.find_element(By.CSS_SELECTOR, f'ul[role=listbox] li[aria-label="{value}"]'),
                      message=f"option {value} in #{element_id}")
    option.click()
    wait_for(lambda: box.get_attribute("value") == value, message=f"#{element_id} = {value}")


def set_number(driver, element_id, value):
    box = driver.find_element(By.CSS_SELECTOR, f"#{element_id} input[type=number]")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(str(value), Keys.ENTER)
    box.send_keys(Keys.TAB)


def recipe_text(driver):
    return driver.find_element(By.CSS_SELECTOR, "#recipe textarea, #recipe input").get_attribute("value")


def test_compose_a_card_template_and_two_demos(browser):
    wait_for(lambda: "Rendered" in browser.find_element(By.ID, "message").text, message="first render")
    pick(browser, "card", CARD)
    pick(browser, "template", TEMPLATE)
    set_number(browser, "num_demos", 2)
    recipe = wait_for(lambda: (lambda text: text if "num_demos=2" in text and TEMPLATE in text else None)(
        recipe_text(browser)), message="recipe with 2 demos")
    assert recipe == f"card={CARD},template={TEMPLATE},num_demos=2,demos_pool_size=20,loader_limit=300"

    expected = load_dataset(recipe, split="test")[:3]["source"]
    shown = wait_for(lambda: [element.text for element in browser.find_elements(By.CSS_SELECTOR, "pre.source")],
                     message="rendered sources")
    assert [text.strip() for text in shown] == [text.strip() for text in expected]
    demos = browser.find_elements(By.CSS_SELECTOR, "pre.source mark.demos")
    assert len(demos) == 3 and all(element.text.count("text:") == 2 for element in demos)

    code = browser.find_element(By.ID, "python_code").text
    assert "from unitxt import load_dataset" in code and repr(recipe) in code
    hub = browser.find_element(By.ID, "hub_code").text
    assert '"unitxt/data"' in hub and repr(recipe) in hub


def test_an_incompatible_template_gives_a_clear_message(browser):
    wait_for(lambda: "Rendered" in browser.find_element(By.ID, "message").text, message="first render")
    browser.find_element(By.CSS_SELECTOR, "#show_all input[type=checkbox]").click()
    pick(browser, "template", "templates.qa.open.default")
    message = wait_for(lambda: (lambda text: text if "Could not render" in text else None)(
        browser.find_element(By.ID, "message").text), message="error message")
    assert "is not one of the templates of cards.demo.sentiment" in message and "'question'" in message
    assert "Traceback" not in browser.page_source
    assert browser.find_elements(By.CSS_SELECTOR, "pre.source") == []


def test_browse_the_catalog(browser):
    tab = wait_for(lambda: next(button for button in browser.find_elements(By.CSS_SELECTOR, "button[role=tab]")
                                if button.text.strip() == "Browse"), message="Browse tab")
    tab.click()
    query = wait_for(lambda: browser.find_element(By.CSS_SELECTOR, "#query textarea, #query input"),
                     message="search box")
    query.send_keys("written for unitxt")
    wait_for(lambda: CARD in browser.find_element(By.ID, "entries").text
             and "cards.wnli" not in browser.find_element(By.ID, "entries").text, message="filtered entries")
    pick(browser, "entry", CARD)
    shown = wait_for(lambda: (lambda text: text if "task_card" in text else None)(
        browser.find_element(By.ID, "entry_json").text), message="entry JSON")
    assert '"loader"' in shown
    assert "1,440 short product and place reviews" in browser.find_element(By.ID, "entry_description").text
