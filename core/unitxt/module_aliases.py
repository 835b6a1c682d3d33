"""Old and original import paths of unitxt modules, resolved to their present home through one table.

`unitxt/__init__` installs `ModuleAliasFinder` on `sys.meta_path`: importing `unitxt.<old path>` (`unitxt.standard`,
`unitxt.llm_as_judge`, `unitxt.recipe`...) gives the module that holds those names now - the same module object, not a
copy - so `from ... import`, `importlib.import_module`, pickles of older versions and `python -m` work without files
of re-exports. This module imports nothing of unitxt at load (it is imported by `unitxt/__init__`).
"""

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from typing import Any, Dict, List, Optional, Tuple

# A home that is no single module: every built-in artifact class by its class name (the original's `unitxt.blocks`,
# a bag of building blocks from all over the package).
ARTIFACT_CLASSES = "<every built-in artifact class>"

# old path (relative to the package) -> new home (relative to the package, or ARTIFACT_CLASSES)
MODULE_ALIASES: Dict[str, str] = {
    # module paths of the original package (and of the documentation)
    "blocks": ARTIFACT_CLASSES,
    "standard": "rendering.recipe",
    "recipe": "rendering.recipe",
    "dataset_utils": "rendering.dataset_query",
    "image_operators": "operators.images",
    "collections_operators": "operators",
    "system_prompts": "formats.system_prompts",
    "type_utils": "types.checking",
    "eval_utils": "evaluation.eval_utils",
    "llm_as_judge": "judges",
    "llm_as_judge_constants": "judges.constants",
    "llm_as_judge_operators": "judges.operators",
    "ui": "explore",
    "evaluate_cli": "cli.steps",  # the original's step functions; the `unitxt-evaluate` command is cli.evaluate
    "service.metrics": "service",
    "base_metric": "metrics.base",  # HELM's unitxt metric imports unitxt.base_metric.Metric
    # this library's own paths before its packages by concept (evaluation, judges, rendering, sandbox, types)
    "data_types": "types",
    "expressions": "sandbox.expressions",
    "expression_runtime": "sandbox.runtime",
    "expression_validation": "sandbox.validation",
    "format_utils": "sandbox.format_strings",
    "formats_tokenizer": "formats.tokenizer",
    "table_augmentors": "augmentors",
    "instance_renderer": "rendering.instance_renderer",
    "batch_render": "rendering.batch_render",
    "demo_pool": "rendering.demo_pool",
    "prompt_assembly": "rendering.prompt_assembly",
    "dataset_builder": "rendering.dataset_builder",
    "media_and_policy": "rendering.media_and_policy",
    "row_json": "rendering.row_json",
    "llm_as_judge_templates": "judges.template_judges",
    "llm_as_judge_prompts": "judges.prompts",
    "llm_as_judge_meta": "judges.meta",
    "judgment_processors": "judges.judgment_processors",
    "model_processors": "judges.model_processors",
    "evaluation_inputs": "evaluation.inputs",
    "streamed_evaluation": "evaluation.streamed",
    "post_processing": "evaluation.post_processing",
    "results": "evaluation.results",
    "html_report": "evaluation.html_report",
    "plots": "evaluation.plots",
    "paired_comparison": "evaluation.paired_comparison",
    "signature": "evaluation.signature",
    # more of the original's module paths: the module holding (most of) the same names now
    "error_utils": "errors",
    "dataclass": "artifact",
    "register": "catalog",
    "base_metric": "metrics.base",
    "metric": "metrics.base",
    "metric_utils": "evaluation.results",
    "parsing_utils": "query_parser",
    "text2sql_utils": "metrics.sql",
    "utils": "general.helpers",
    "string_operators": "operators.field_edits",
    "struct_data_operators": "operators.struct_data",
    "dialog_operators": "operators.dialog",
    "span_lableing_operators": "operators.label_spans",
    "stream_operators": "operators.splits_and_streams",
    "llm_as_judge_from_template": "judges.template_judges",
    "llm_as_judge_utils": "judges.constants",
    "llm_as_judge_chat_templates": "judges.prompts",  # the original's judge prompt templates; ours are built there
    "dataset": "rendering.dataset_builder",
    "collections": "templates.collections",
    "deprecation_utils": "general.deprecation",
    "inference_engines": "inference",
    "fusion": "operators.fusion",
    "normalizers": "operators.value_edits",
    "hf_utils": "general.hub_versions",
    "generator_utils": "stream",
    "file_utils": "general.helpers",
    "split_utils": "splitters",
    "instructions": "formats.system_prompts",  # the engines' module in releases before `unitxt.inference`
    "schema": "rendering.schema",
    "validate": "rendering.schema",
}

# Names the original's modules expose because they import them (`unitxt.templates.MultiTypeSerializer`, defined in its
# `serializers`; `unitxt.llm_as_judge.EmptyPrediction`, from its `metric_utils`), listed from the original 1.26.10's
# module namespaces: old path -> "<original module>: name name <original module>: name ...". Each resolves to our
# object of that concept by importing `<package>.<original module>` (through this table when that path moved).
ORIGINAL_IMPORTS: Dict[str, str] = {
    'api': 'artifact: fetch_artifact benchmark: Benchmark dataclass: to_dict dataset_utils: get_dataset_artifact '
           'inference: InferenceEngine LogProbInferenceEngine OptionSelectingByLogProbsInferenceEngine '
           'logging_utils: get_logger metric_utils: EvaluationResults operator: SourceOperator schema: loads_batch '
           'settings_utils: get_constants get_settings task: Task utils: lru_cache_decorator',
    'artifact': 'error_utils: Documentation UnitxtWarning error_context parsing_utils: '
                'separate_inside_and_outside_square_brackets settings_utils: get_constants get_settings text_utils: '
                'camel_to_snake_case is_camel_case type_utils: isoftype issubtype utils: artifacts_json_cache '
                'json_dump save_to_file shallow_copy',
    'augmentors': 'random_utils: new_random_generator type_utils: parse_type_string to_type_string',
    'base_metric': 'artifact: Artifact dataclass: AbstractField deprecation_utils: deprecation error_utils: '
                   'Documentation UnitxtWarning stream: Stream type_utils: isoftype parse_type_string '
                   'to_type_string',
    'benchmark': 'fusion: FixedFusion',
    'blocks': 'catalog: LocalCatalog stream: MultiStream',
    'card': 'dataclass: OptionalField operator: StreamingOperator splitters: Sampler templates: Template '
            'TemplatesDict TemplatesList',
    'collections': 'dataclass: AbstractField random_utils: new_random_generator',
    'collections_operators': 'dict_utils: dict_get dict_set stream: Stream utils: recursive_shallow_copy',
    'dataset': 'dataset_utils: get_dataset_artifact hf_utils: verify_versions_compatibility logging_utils: '
               'get_logger schema: loads_batch loads_instance settings_utils: get_constants utils: '
               'is_package_installed',
    'dataset_utils': 'artifact: Artifact UnitxtArtifactNotFoundError logging_utils: get_logger register: '
                     'register_all_artifacts settings_utils: get_settings standard: DatasetRecipe',
    'dialog_operators': 'operators: InstanceFieldOperator',
    'dict_utils': 'text_utils: to_pretty_string',
    'error_utils': 'logging_utils: get_logger settings_utils: get_constants',
    'eval_utils': 'artifact: verbosed_fetch_artifact base_metric: Metric metric_utils: get_remote_metrics_endpoint '
                  'get_remote_metrics_names operator: SequentialOperator stream: MultiStream',
    'evaluate_cli': 'api: load_recipe artifact: UnitxtArtifactNotFoundError parsing_utils: '
                    'parse_key_equals_value_string_to_dict',
    'formats': 'dataclass: OptionalField dict_utils: dict_get error_utils: UnitxtError image_operators: '
               'image_to_data_url operator: InstanceOperator settings_utils: get_constants type_utils: isoftype '
               'utils: retry_connection_with_exponential_backoff',
    'fusion': 'error_utils: error_context logging_utils: get_logger random_utils: new_random_generator stream: '
              'DynamicStream type_utils: isoftype',
    'generator_utils': 'dataclass: Dataclass OptionalField utils: recursive_copy',
    'hf_utils': 'file_utils: get_all_files_in_dir',
    'image_operators': 'augmentors: TaskInputsAugmentor operators: InstanceFieldOperator settings_utils: '
                       'get_constants type_utils: isoftype types: Image',
    'inference': 'artifact: Artifact base_metric: Metric dataclass: InternalField NonPositionalField '
                 'deprecation_utils: deprecation error_utils: UnitxtError UnitxtWarning error_context '
                 'image_operators: EncodeImageToString ImageDataString data_url_to_image extract_images '
                 'logging_utils: get_logger operator: PackageRequirementsMixin operators: ArtifactFetcherMixin '
                 'settings_utils: get_constants get_settings type_utils: isoftype utils: '
                 'retry_connection_with_exponential_backoff',
    'llm_as_judge': 'api: infer artifact: fetch_artifact dict_utils: dict_get error_utils: UnitxtError inference: '
                    'InferenceEngine llm_as_judge_constants: DirectCriteriaCatalogEnum EvaluatorMetadata '
                    'EvaluatorNameEnum EvaluatorTypeEnum ModelProviderEnum PairwiseCriteriaCatalogEnum '
                    'llm_as_judge_utils: get_evaluator_metadata get_parsed_context rank_indexes logging_utils: '
                    'get_logger metric_utils: EmptyPrediction metrics: BulkInstanceMetric task: Task templates: '
                    'Template',
    'llm_as_judge_chat_templates': 'templates: InputOutputTemplate',
    'llm_as_judge_from_template': 'api: infer dataclass: Field operators: ArtifactFetcherMixin settings_utils: '
                                  'get_settings',
    'llm_as_judge_operators': 'artifact: fetch_artifact llm_as_judge_constants: CriteriaOption',
    'loaders': 'dataclass: NonPositionalField dict_utils: dict_get error_utils: Documentation UnitxtError '
               'UnitxtWarning error_context fusion: FixedFusion logging_utils: get_logger operator: SourceOperator '
               'operators: Set settings_utils: get_settings stream: DynamicStream MultiStream type_utils: isoftype '
               'utils: LRUCache recursive_copy retry_connection_with_exponential_backoff',
    'logging_utils': 'settings_utils: get_settings',
    'metric': 'hf_utils: verify_versions_compatibility settings_utils: get_constants utils: is_package_installed',
    'metric_utils': 'dataclass: Dataclass error_utils: Documentation error_context operator: InstanceOperator '
                    'MultiStreamOperator SequentialOperator SequentialOperatorInitializer StreamInitializerOperator '
                    'operators: ApplyMetric ApplyOperatorsField ArtifactFetcherMixin FlattenInstances RecursiveCopy '
                    'Rename register: register_all_artifacts settings_utils: get_constants get_settings stream: '
                    'DynamicStream MultiStream struct_data_operators: LoadJson text_utils: to_pretty_string '
                    'type_utils: isoftype utils: recursive_copy',
    'metrics': 'artifact: Artifact collections: ListCollection dataclass: AbstractField InternalField '
               'NonPositionalField OptionalField deprecation_utils: deprecation dict_utils: dict_get error_utils: '
               'Documentation UnitxtError UnitxtWarning error_context inference: HFPipelineBasedInferenceEngine '
               'InferenceEngine LogProbInferenceEngine TorchDeviceMixin WMLInferenceEngineGeneration logging_utils: '
               'get_logger metric_utils: InstanceInput MetricRequest MetricResponse operator: InstanceOperator '
               'MultiStreamOperator PackageRequirementsMixin SequentialOperator StreamOperator StreamingOperator '
               'operators: ArtifactFetcherMixin Copy FieldOperator Set random_utils: get_seed settings_utils: '
               'get_settings stream: MultiStream Stream text2sql_utils: SQLExecutionResult '
               'SQLNonExecutionMetricResult type_utils: isoftype parse_type_string to_type_string types: ToolCall '
               'utils: deep_copy recursive_copy retry_connection_with_exponential_backoff',
    'operator': 'dataclass: FinalField InternalField error_utils: error_context settings_utils: get_constants '
                'stream: DynamicStream EmptyStreamError utils: DistributionNotFound VersionConflict require',
    'operators': 'artifact: Artifact fetch_artifact dataclass: NonPositionalField OptionalField deprecation_utils: '
                 'deprecation dict_utils: dict_delete dict_get dict_set is_subpath error_utils: UnitxtError '
                 'error_context generator_utils: ReusableGenerator random_utils: new_random_generator '
                 'settings_utils: get_settings stream: DynamicStream MultiStream Stream text_utils: '
                 'to_pretty_string type_utils: isoftype utils: LRUCache deep_copy flatten_dict recursive_copy '
                 'recursive_shallow_copy shallow_copy',
    'processors': 'deprecation_utils: deprecation error_utils: Documentation operators: InstanceFieldOperator '
                  'settings_utils: get_constants type_utils: isoftype',
    'random_utils': 'settings_utils: get_settings',
    'register': 'artifact: Catalogs error_utils: Documentation UnitxtError UnitxtWarning settings_utils: '
                'get_constants get_settings utils: Singleton',
    'schema': 'artifact: Artifact dict_utils: dict_get settings_utils: get_settings type_utils: isoftype types: '
              'Image',
    'serializers': 'dataclass: AbstractField operators: InstanceFieldOperator settings_utils: get_constants '
                   'type_utils: isoftype to_type_string types: Conversation Document Image SQLDatabase Table Tool '
                   'ToolCall',
    'split_utils': 'logging_utils: get_logger',
    'splitters': 'artifact: Artifact dict_utils: dict_get type_utils: isoftype utils: recursive_copy',
    'standard': 'artifact: fetch_artifact dataclass: Field InternalField OptionalField deprecation_utils: '
                'deprecation error_utils: UnitxtError generator_utils: ReusableGenerator logging_utils: get_logger '
                'settings_utils: get_settings type_utils: isoftype utils: LRUCache recursive_copy',
    'stream': 'dataclass: Dataclass OptionalField logging_utils: get_logger settings_utils: get_constants '
              'get_settings utils: recursive_copy',
    'stream_operators': 'settings_utils: get_settings',
    'string_operators': 'settings_utils: get_settings utils: retry_connection_with_exponential_backoff',
    'struct_data_operators': 'error_utils: UnitxtWarning type_utils: isoftype types: Table ToolCall utils: '
                             'recursive_copy',
    'system_prompts': 'dataclass: NonPositionalField settings_utils: get_constants',
    'task': 'artifact: fetch_artifact deprecation_utils: deprecation error_utils: UnitxtWarning error_context '
            'metrics: MetricsList operators: ArtifactFetcherMixin settings_utils: get_settings templates: Template '
            'type_utils: is_type_dict isoftype parse_type_dict parse_type_string to_type_dict to_type_string '
            'verify_required_schema',
    'templates': 'artifact: Artifact dataclass: NonPositionalField dict_utils: dict_get dict_set error_utils: '
                 'Documentation UnitxtError operator: InstanceOperator Operator random_utils: new_random_generator '
                 'serializers: ConversationSerializer DialogSerializer ImageSerializer ListSerializer '
                 'MultiTypeSerializer NumberQuantizingSerializer SQLDatabaseAsSchemaSerializer Serializer '
                 'TableSerializer ToolCallSerializer ToolsSerializer VideoSerializer settings_utils: get_constants '
                 'type_utils: isoftype to_type_string',
    'test_utils.artifact': 'logging_utils: get_logger register: register_local_catalog text_utils: print_dict',
    'test_utils.card': 'artifact: fetch_artifact catalog: add_to_catalog collections: Collection register: '
                       'register_local_catalog settings_utils: get_settings standard: DatasetRecipe text_utils: '
                       'to_pretty_string utils: deep_copy',
    'test_utils.catalog': 'settings_utils: get_constants get_settings',
    'test_utils.metrics': 'eval_utils: evaluate metrics: GlobalMetric settings_utils: get_settings stream: '
                          'MultiStream type_utils: isoftype',
    'test_utils.operators': 'operator: StreamingOperator test_utils.artifact: test_artfifact_saving_and_loading '
                            'type_utils: isoftype',
    'text2sql_utils': 'logging_utils: get_logger types: SQLDatabase',
    'text_utils': 'logging_utils: get_logger',
    'type_utils': 'utils: safe_eval',
    'ui': 'logging_utils: enable_explicit_format settings_utils: get_settings',
    'ui.load_catalog_data': 'error_utils: Documentation UnitxtError UnitxtWarning',
    'utils': 'logging_utils: get_logger settings_utils: get_settings text_utils: is_made_of_sub_strings',
}


def parse_original_imports(text: str) -> Dict[str, str]:
    """{name: original module} from one ORIGINAL_IMPORTS entry ("module: name name module: name ...")."""
    names, source = {}, ""
    for token in text.split():
        if token.endswith(":"):
            source = token[:-1]
        else:
            names[token] = source
    return names


_imports_by_module: Dict[str, Dict[str, str]] = {}


def original_imports_of(module_name: str) -> Dict[str, str]:
    """{name: original module} for every name the original imported into a module that `module_name` serves (its own
    path, and every old path of the alias table whose home it is)."""
    found = _imports_by_module.get(module_name)
    if found is None:
        package, _, relative = module_name.partition(".")
        paths = [relative] + [old + relative[len(home):] for old, home in MODULE_ALIASES.items()
                              if relative == home or relative.startswith(home + ".")]
        found = {}
        for path in paths:
            found.update(parse_original_imports(ORIGINAL_IMPORTS.get(path, "")))
        _imports_by_module[module_name] = found
    return found


NOT_IMPORTED = object()


def original_import(module_name: str, attribute: str) -> Any:
    """The object the original's module exposed under `attribute` by importing it, taken from our module of its
    concept (`NOT_IMPORTED` when the original's module had no such imported name)."""
    source = original_imports_of(module_name).get(attribute)
    if source is None:
        return NOT_IMPORTED
    package = module_name.split(".")[0]
    return getattr(importlib.import_module(f"{package}.{source}"), attribute)


def artifact_classes_module(name: str, package: str) -> types.ModuleType:
    """A module whose attributes are the built-in artifact classes, each imported on first use from its module."""
    module = types.ModuleType(name, "Every built-in unitxt artifact class by its class name (imported on first use).")
    class_of = moved_classes(name, package)

    def __getattr__(attribute: str) -> Any:
        if attribute == "__all__":
            artifact = importlib.import_module(f"{package}.artifact")
            return sorted({cls.__name__ for cls in artifact.registered_artifact_types().values()
                           if cls.__module__.startswith(package + ".")})
        found = class_of(attribute)
        setattr(module, attribute, found)
        return found

    module.__getattr__ = __getattr__
    return module


def moved_classes(module_name: str, package: Optional[str] = None) -> Any:
    """A module `__getattr__` giving the names the original's module imported (ORIGINAL_IMPORTS) and the built-in
    artifact classes it kept there that live elsewhere here (e.g. `unitxt.processors.StanceToProCon`, found through
    the type index), each imported on first use."""
    package = package or module_name.split(".")[0]

    def __getattr__(attribute: str) -> Any:
        imported = original_import(module_name, attribute)
        if imported is not NOT_IMPORTED:
            return imported
        if attribute[:1].isupper():
            artifact = importlib.import_module(f"{package}.artifact")
            try:
                found = artifact.get_artifact_class(artifact.camel_to_snake(attribute))
            except artifact.UnknownArtifactTypeError:
                found = None
            if found is not None and found.__name__ == attribute:
                return found
        raise AttributeError(f"module '{module_name}' has no attribute '{attribute}'")

    return __getattr__


class ModuleAliasFinder:
    """Resolves `<package>.<old path>[.<rest>]` to `<package>.<new home>[.<rest>]` (the same module object): a
    meta path finder and the loader of its specs (the import protocol's methods; importlib.abc costs 15 ms to import)."""

    def __init__(self, package: str, aliases: Dict[str, str]) -> None:
        self.package = package
        self.aliases = aliases
        self._homes: Dict[str, Any] = {}  # alias name -> the real module's own spec, restored after loading

    def home_of(self, fullname: str) -> Optional[Tuple[str, str]]:
        """(home, rest) for an aliased name - the longest aliased prefix wins - or None."""
        if not fullname.startswith(self.package + "."):
            return None
        parts = fullname[len(self.package) + 1:].split(".")
        for end in range(len(parts), 0, -1):
            home = self.aliases.get(".".join(parts[:end]))
            if home is not None:
                return home, ".".join(parts[end:])
        return None

    def target_name(self, fullname: str) -> Optional[str]:
        """The real module name behind an alias (None for the class namespace)."""
        home, rest = self.home_of(fullname)
        if home == ARTIFACT_CLASSES:
            return None
        return ".".join(part for part in (self.package, home, rest) if part)

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Optional[importlib.machinery.ModuleSpec]:
        found = self.home_of(fullname)
        if found is None:
            return None
        if found[0] == ARTIFACT_CLASSES:
            return None if found[1] else importlib.util.spec_from_loader(fullname, self)
        real_spec = importlib.util.find_spec(self.target_name(fullname))
        if real_spec is None:
            return None
        return importlib.util.spec_from_loader(fullname, self,
                                               is_package=real_spec.submodule_search_locations is not None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        name = self.target_name(spec.name)
        if name is None:
            return artifact_classes_module(spec.name, self.package)
        module = importlib.import_module(name)
        self._homes[spec.name] = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is the real one, already executed. The import machinery set its `__spec__` to
        the alias's; give it back its own, so it keeps reporting where it lives."""
        spec = self._homes.pop(getattr(module.__spec__, "name", None), None)
        if spec is not None:
            module.__spec__ = spec

    def get_code(self, fullname: str) -> Any:
        """For `python -m <old path>` (runpy asks the loader of the name it was given): code that runs the real module
        as __main__ under its own name, so its relative imports resolve in its own package."""
        name = self.target_name(fullname)
        real_spec = importlib.util.find_spec(name) if name else None
        if real_spec is None or not hasattr(real_spec.loader, "get_code"):
            raise ImportError(f"No code object for {fullname}", name=fullname)
        return compile(f"import runpy\nrunpy.run_module({name!r}, run_name='__main__', alter_sys=True)\n",
                       f"<{fullname}: {name}>", "exec")

    def is_package(self, fullname: str) -> bool:
        name = self.target_name(fullname)
        real_spec = importlib.util.find_spec(name) if name else None
        return bool(real_spec and real_spec.submodule_search_locations is not None)


def install(package: str) -> Any:
    """Put the package's alias finder first on sys.meta_path (once per package)."""
    for finder in sys.meta_path:  # by class name: a vendored and an installed copy share the check
        if type(finder).__name__ == "ModuleAliasFinder" and getattr(finder, "package", None) == package:
            return finder
    finder = ModuleAliasFinder(package, MODULE_ALIASES)
    sys.meta_path.insert(0, finder)
    return finder


def aliases_of(home: str) -> List[str]:
    """The old paths that lead to a module (relative names), e.g. aliases_of("rendering.recipe")."""
    return sorted(old for old, new in MODULE_ALIASES.items() if new == home)
