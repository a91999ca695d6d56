// SPDX-License-Identifier: Apache-2.0
//
// The text `wakesim policy new` writes, with @NAME@ (the policy's name,
// "my-idea"), @CLASS@ ("MyIdea"), @STEM@ ("my_idea"), @HOOK@, and the one
// switch's @SWITCH@ ("same_llc"), @SWITCH_ENUM@ ("kSameLlc") and
// @SWITCH_MEANING@ in it.
// The hook-specific parts come per hook: its override's declaration, its
// definition and its unit test.
#pragma once

#include <string_view>

namespace wb::cli {

struct HookTemplate {
    std::string_view hook;
    std::string_view declaration;  // the override, in the class
    std::string_view definition;   // the override, in the source
    // A placement hook calls the shared idea, choose(), and is tested by
    // the shared cases through `call` (@P@ is `policy` or `ablated`); the
    // others bring their own test.
    std::string_view call;
    std::string_view switch_name;  // the policy's one switch
    std::string_view switch_meaning;
    std::string_view test;  // the body of main() when `call` is empty
};

// The shared idea of the placement hooks (a private member choose()), and
// the test cases that exercise it through a hook's `call`.
extern const std::string_view kChooseDeclaration;
extern const std::string_view kChooseDefinition;
extern const std::string_view kChooseTest;

// The template for `hook`, or null when the scaffold has none.
const HookTemplate* hook_template(std::string_view hook);

extern const std::string_view kScaffoldCmake;
extern const std::string_view kScaffoldHeader;
extern const std::string_view kScaffoldSource;
extern const std::string_view kScaffoldTest;
extern const std::string_view kScaffoldReadme;

}  // namespace wb::cli
