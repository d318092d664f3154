"""A user's own map images (gem-view --map-images DIR) and where each lies
in the world (maps.json, or DIR/<map>.json beside the image). Only files
named after the match's map are ever read: the name must be a plain map
name, and the file must be directly in DIR."""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
MAP_NAME = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
IMAGES = (("%s.png", "image/png"), ("%s_radar.png", "image/png"), ("%s.jpg", "image/jpeg"),
          ("%s.webp", "image/webp"))
KEYS_CS2 = ("pos_x", "pos_y", "scale")
KEYS_BOUNDS = ("min_x", "min_y", "max_x", "max_y")

with open(os.path.join(HERE, "maps.json")) as f:
    TABLE = json.load(f)


def _calibration(entry):
    """The entry's numbers if it is one of the two forms, else None."""
    if not isinstance(entry, dict):
        return None
    for keys in (KEYS_CS2, KEYS_BOUNDS):
        if all(isinstance(entry.get(k), (int, float)) for k in keys):
            c = {k: float(entry[k]) for k in keys}
            if keys == KEYS_CS2 and c["scale"] <= 0:
                return None
            if keys == KEYS_BOUNDS and (c["max_x"] <= c["min_x"] or c["max_y"] <= c["min_y"]):
                return None
            return c
    return None


def find(directory, game, map_name):
    """(image path, mime type, calibration) for a match, or None."""
    if not directory or not isinstance(map_name, str) or not MAP_NAME.match(map_name):
        return None
    image = None
    for pattern, mime in IMAGES:
        path = os.path.join(directory, pattern % map_name)
        if os.path.isfile(path) and not os.path.islink(path):
            image = (path, mime)
            break
    if image is None:
        return None
    calibration = None
    sidecar = os.path.join(directory, map_name + ".json")
    if os.path.isfile(sidecar):
        try:
            with open(sidecar) as f:
                calibration = _calibration(json.load(f))
        except (OSError, ValueError):
            calibration = None
    if calibration is None:
        calibration = _calibration(TABLE.get(game, {}).get(map_name))
    if calibration is None:
        return None
    return image[0], image[1], calibration
