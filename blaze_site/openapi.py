"""The OpenAPI schema tells the truth: answers every operation may give, and links.

ninja documents what each operation returns on success and the errors it names; this adds
what holds for all of them (401 without valid credentials, 400 for a parameter or body
that does not validate, 429 for the per-user rates) and the links from a new game to the
operations on it, so clients and schemathesis can follow them.
"""

from ninja import NinjaAPI

ERROR_SCHEMA = {
    "type": "object",
    "properties": {"error": {"type": "string", "description": "a sentence a person can act on"}},
    "required": ["error"],
}
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}

# From a response holding a game view (its "id"), to the operations on that game.
_GAME_LINKS = {
    "GetGame": ("get", "/api/v1/games/{game_id}"),
    "JoinGame": ("post", "/api/v1/games/{game_id}/join"),
    "LeaveGame": ("post", "/api/v1/games/{game_id}/leave"),
    "AddBot": ("post", "/api/v1/games/{game_id}/bots"),
    "PlayMove": ("post", "/api/v1/games/{game_id}/moves"),
    "GetRecord": ("get", "/api/v1/games/{game_id}/record"),
    "GetReplay": ("get", "/api/v1/games/{game_id}/replay"),
}
_LINKED_FROM = {("post", "/api/v1/games"): "201", ("post", "/api/v1/games/import"): "201"}


class TruthfulNinjaAPI(NinjaAPI):
    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        paths = schema["paths"]
        operation_ids = {(method, path): op.get("operationId")
                         for path, ops in paths.items() for method, op in ops.items()}
        for path, operations in paths.items():
            for method, operation in operations.items():
                _complete(operation)
                status = _LINKED_FROM.get((method, path))
                if status:
                    operation["responses"][status]["links"] = {
                        name: {"operationId": operation_ids[target],
                               "parameters": {"game_id": "$response.body#/id"}}
                        for name, target in _GAME_LINKS.items() if target in operation_ids
                    }
        return schema


def _complete(operation: dict) -> None:
    # ninja keys responses by int; JSON keys are strings (and must not appear twice)
    responses = operation["responses"] = {str(k): v for k, v in operation["responses"].items()}
    content = {"application/json": {"schema": ERROR_SCHEMA}}
    if operation.get("security"):
        responses.setdefault("401", {"description": "Missing or invalid credentials",
                                     "content": content})
    if operation.get("parameters") or operation.get("requestBody"):
        responses.setdefault("400", {"description": "A parameter or the body is not valid",
                                     "content": content})
    if "429" in responses:
        responses["429"]["headers"] = _RETRY_AFTER
