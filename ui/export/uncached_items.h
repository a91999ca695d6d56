// SPDX-License-Identifier: Apache-2.0
//
// Items that cache their drawing would be written into an SVG as embedded
// bitmaps, and into a larger PNG as blurred ones: while an export paints a
// scene they draw afresh, and their caches come back afterwards.
#pragma once

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <utility>
#include <vector>

namespace wb {

class UncachedItems {
public:
    explicit UncachedItems(QGraphicsScene* scene)
    {
        for (QGraphicsItem* item : scene->items()) {
            if (item->cacheMode() != QGraphicsItem::NoCache) {
                saved_.push_back({item, item->cacheMode()});
                item->setCacheMode(QGraphicsItem::NoCache);
            }
        }
    }
    ~UncachedItems()
    {
        for (const auto& [item, mode] : saved_)
            item->setCacheMode(mode);
    }
    UncachedItems(const UncachedItems&) = delete;
    UncachedItems& operator=(const UncachedItems&) = delete;

private:
    std::vector<std::pair<QGraphicsItem*, QGraphicsItem::CacheMode>> saved_;
};

}  // namespace wb
