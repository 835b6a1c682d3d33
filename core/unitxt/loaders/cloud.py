"""Loaders of data held by a service: `LoadFromIBMCloud` (IBM Cloud Object Storage through `ibm-cos-sdk`, an
optional extra imported only when data is loaded; without it loading fails with the install hint) and `LoadFromAPI`
(JSON answers of HTTP endpoints, with the standard library)."""

import itertools
import os
import tempfile
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ..logging_utils import get_logger
from ..operator import PackageRequirementsMixin
from .base import Loader, LoaderError
from .hub_and_files import _rows_from_hf_dataset


class LoadFromIBMCloud(PackageRequirementsMixin, Loader):
    """Files of an IBM Cloud Object Storage bucket (`bucket_name`, under `data_dir`), downloaded once into
    $UNITXT_IBM_COS_CACHE (or the working directory)/ibmcos_datasets and read with `datasets`. `data_files` is a
    list of file names (splits named by the files) or {split: file name(s)}; the endpoint and AWS-style keys are
    read from the environment variables named by the `*_env` fields. With a loader_limit, only that many lines of a
    .jsonl file are downloaded."""

    endpoint_url_env: str
    aws_access_key_id_env: str
    aws_secret_access_key_env: str
    bucket_name: str
    data_dir: Optional[str] = None
    data_files: Union[List[str], Dict[str, Union[str, List[str]]]]
    data_field: Optional[str] = None
    caching: bool = True

    _requirements_list = {"ibm_boto3": "pip install ibm-cos-sdk"}

    _CREDENTIALS = (("endpoint_url_env", "endpoint_url"), ("aws_access_key_id_env", "aws_access_key_id"),
                    ("aws_secret_access_key_env", "aws_secret_access_key"))

    def lazy_verify(self) -> None:
        """Hook: the checks made when loading, not at construction: the credential variables are set, no streaming."""
        for field, _ in self._CREDENTIALS:
            if os.getenv(getattr(self, field)) is None:
                raise LoaderError(f"Please set the {getattr(self, field)} environmental variable",
                                  artifact=self.artifact_name, field=field)
        if self.streaming:
            raise LoaderError("LoadFromIBMCloud cannot load with streaming.", artifact=self.artifact_name,
                              field="streaming")

    def _credentials(self) -> Dict[str, str]:
        self.lazy_verify()
        return {key: os.getenv(getattr(self, field)) for field, key in self._CREDENTIALS}

    def _file_names(self) -> List[str]:
        if not isinstance(self.data_files, Mapping):
            return list(self.data_files)
        names: List[str] = []
        for value in self.data_files.values():
            names += [value] if isinstance(value, str) else list(value)
        return names

    def _download(self, cos: Any, object_key: str, local_file: str) -> None:
        """One object into `local_file` (only the first loader_limit lines of a .jsonl when limited)."""
        get_logger().info(f"Downloading {object_key} from {self.bucket_name} COS")
        try:
            if self.loader_limit is not None and object_key.endswith(".jsonl"):
                body = cos.Object(self.bucket_name, object_key).get()["Body"]
                with open(local_file, "wb") as out:
                    for line in itertools.islice(body.iter_lines(), self.loader_limit):
                        out.write(line + b"\n")
                return
            cos.Bucket(self.bucket_name).download_file(object_key, local_file, Callback=lambda _chunk: None)
        except Exception as error:  # noqa: BLE001 - the SDK's errors, named with the object
            raise LoaderError(f"Unable to download {object_key} from bucket {self.bucket_name} in IBM COS: {error}",
                              artifact=self.artifact_name, stage="Raw Dataset Download") from error

    def _local_dir(self) -> str:
        root = os.getenv("UNITXT_IBM_COS_CACHE") or os.getcwd()
        local_dir = os.path.join(root, "ibmcos_datasets", self.bucket_name, self.data_dir or "",
                                 f"loader_limit_{self.loader_limit}")
        os.makedirs(local_dir, exist_ok=True)
        return local_dir

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        self.check_missing_requirements()
        credentials = self._credentials()
        import ibm_boto3

        cos = ibm_boto3.resource("s3", **credentials)
        local_dir = self._local_dir()
        for name in self._file_names():
            local_file = os.path.join(local_dir, name)
            if self.caching and os.path.exists(local_file):
                continue
            object_key = f"{self.data_dir}/{name}" if self.data_dir is not None else name
            with tempfile.NamedTemporaryFile(dir=local_dir) as temp:  # written beside, then moved in atomically
                partial = temp.name + ".part"
            self._download(cos, object_key, partial)
            os.renames(partial, local_file)
        import datasets

        data_files = None if not isinstance(self.data_files, Mapping) else dict(self.data_files)
        loaded = datasets.load_dataset(local_dir, data_files=data_files, field=self.data_field)
        return {split: (lambda dataset=dataset: _rows_from_hf_dataset(dataset, self.loader_limit))
                for split, dataset in dict(loaded).items()}


class LoadFromAPI(Loader):
    """One split per URL of `urls` ({split: url}): the JSON answer of a GET (or POST with `{}`) request, its
    `data_field` list (the whole answer when data_field is empty). `api_key_env_var` names an environment variable
    holding a bearer token; `headers` add to the JSON ones; `verify_cert=False` accepts any TLS certificate.

    Requests go through the library's JSON HTTP client: a redirect is not followed (the token goes only to the host
    the URL names), each request has a total deadline of `timeout` seconds and its answer is read up to
    `max_response_bytes`; every failure is a LoaderError naming the split and the URL."""

    urls: Dict[str, str]
    chunksize: int = 100000
    api_key_env_var: Optional[str] = None
    headers: Optional[Dict[str, Any]] = None
    data_field: str = "data"
    method: str = "GET"
    verify_cert: bool = True
    timeout: float = 300.0
    max_response_bytes: int = 256 * 1024 * 1024

    def _request_headers(self) -> Dict[str, str]:
        headers = {"Content-Type": "application/json", "accept": "application/json"}
        if self.api_key_env_var is not None:
            api_key = os.getenv(self.api_key_env_var)
            if not api_key:
                raise LoaderError(f"The environment variable '{self.api_key_env_var}' must be set to use the "
                                  "LoadFromAPI loader.", artifact=self.artifact_name, field="api_key_env_var")
            headers["Authorization"] = f"Bearer {api_key}"
        headers.update(self.headers or {})
        return headers

    def _fetch(self, split: str, url: str, headers: Dict[str, str]) -> List[Any]:
        import json
        import ssl
        from urllib.parse import urlsplit

        from ..inference.concurrency import RequestError
        from ..inference.http_client import JSONHTTPClient

        if self.method not in ("GET", "POST"):
            raise LoaderError(f"Method {self.method} not supported", artifact=self.artifact_name, field="method")
        parts = urlsplit(url)
        where = f"split '{split}' ({parts.scheme}://{parts.netloc}{parts.path})"
        try:
            client = JSONHTTPClient(f"{parts.scheme}://{parts.netloc}", headers=headers, timeout=self.timeout)
            if not self.verify_cert:
                client.ssl_context = ssl._create_unverified_context()  # noqa: S323 - asked for by verify_cert
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            body = client.request(self.method, path, b"{}" if self.method == "POST" else None,
                                  max_bytes=self.max_response_bytes)
        except RequestError as error:
            raise LoaderError(f"Loading {where} failed: {error.message}", artifact=self.artifact_name,
                              field="urls") from None
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as error:
            raise LoaderError(f"The answer for {where} is not JSON ({type(error).__name__}); it starts with "
                              f"{body[:100]!r}.", artifact=self.artifact_name, field="urls") from None
        if self.data_field:
            if not isinstance(data, dict) or self.data_field not in data:
                raise LoaderError(f"Data field '{self.data_field}' not found in API response.",
                                  artifact=self.artifact_name, field="data_field")
            data = data[self.data_field]
        if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
            raise LoaderError(f"The answer for {where} must hold a list of JSON objects (rows)"
                              f"{' in ' + repr(self.data_field) if self.data_field else ''}, got "
                              f"{type(data).__name__}.", artifact=self.artifact_name, field="data_field")
        return data

    def load_generators(self) -> Dict[str, Callable[[], Iterable[Dict[str, Any]]]]:
        headers = self._request_headers()
        fetched = {split: self._fetch(split, url, headers) for split, url in self.urls.items()}
        return {split: (lambda rows=rows: (dict(row) for row in rows)) for split, rows in fetched.items()}


__all__ = ["LoadFromIBMCloud", "LoadFromAPI"]
