// SPDX-License-Identifier: Apache-2.0
//
// The decision diagram's neutral colours in each theme: its paper, the
// nodes' fill and ink, and the grey of what was not taken. The policies'
// own colours are the same in both.
#pragma once

#include <QColor>

namespace wb {

struct DiagramInk {
    QColor background;
    QColor node_fill;
    QColor ink;        // a lit node's title and values
    QColor quiet_ink;  // unlit titles and the tests' notes
    QColor inactive;   // untaken edges and unlit borders
    QColor shared_border;

    static const DiagramInk& light()
    {
        static const DiagramInk kLight{QColor(0xfb, 0xfb, 0xfc), QColor(0xff, 0xff, 0xff), QColor(0x1a, 0x1a, 0x1a),
                                       QColor(0x55, 0x59, 0x60), QColor(0xb8, 0xbc, 0xc2), QColor(0x40, 0x44, 0x4a)};
        return kLight;
    }
    static const DiagramInk& dark()
    {
        static const DiagramInk kDark{QColor(0x23, 0x27, 0x2c), QColor(0x2f, 0x35, 0x3b), QColor(0xec, 0xee, 0xf0),
                                      QColor(0xb4, 0xbb, 0xc2), QColor(0x5c, 0x64, 0x6d), QColor(0xc8, 0xcd, 0xd2)};
        return kDark;
    }
};

}  // namespace wb
