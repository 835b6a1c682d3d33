"""Recipe rendering: a recipe (card, template, format, demos) turned into model-ready rows - one instance at a time
or a split a batch at a time into columns - and the datasets builder that serves them.
Layer 5 of README "Layout": may import layers 1-4 (foundations, artifacts, data, prompts); never metrics and above.

Modules: `recipe` (DatasetRecipe, recipe strings), `instance_renderer`, `batch_render`, `demo_pool`,
`prompt_assembly`, `media_and_policy`, `row_json`, `row_arrow`, `dataset_builder` (the builder class) and
`recipe_builder` (its workings).
"""
