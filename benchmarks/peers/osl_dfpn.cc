// osl_dfpn.cc - peer adapter: OpenShogiLib's df-pn (Debian libosl-dev) on the same
// positions as `tsumegen bench solve`.  Reads "SFEN [moves ...]" lines (the moves are
// ignored), prints one JSON line each: result (mate|nomate|unknown), nodes, ms, and
// the length of the line OSL reports (a mate found, not necessarily the shortest).
// Build: g++ -O2 -std=c++17 -DOSL_SMP osl_dfpn.cc -losl -lpthread -o osl_dfpn
// (Debian builds libosl with OSL_SMP: without the define the table struct layout
// differs from the library's and its lock spins forever: the "hang" seen before.)
#include <vector>  // before the OSL headers, which use std::vector undeclared
#include <osl/checkmate/dfpn.h>
#include <osl/hashKey.h>
#include <osl/pathEncoding.h>
#include <osl/usi.h>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

int main(int argc, char **argv) {
    size_t limit = argc > 1 ? std::stoul(argv[1]) : 1000000;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::string sfen = line.substr(0, line.find(" moves"));
        osl::NumEffectState state;
        try {
            osl::usi::parse("sfen " + sfen, state);
        } catch (std::exception &e) {
            std::printf("{\"sfen\":\"%s\",\"error\":\"%s\"}\n", sfen.c_str(), e.what());
            continue;
        }
        auto t0 = std::chrono::steady_clock::now();
        osl::checkmate::DfpnTable table(state.turn());
        osl::checkmate::Dfpn dfpn;
        dfpn.setTable(&table);
        osl::Move best;
        std::vector<osl::Move> pv;
        const osl::HashKey key(state);
        const osl::PathEncoding path(state.turn());
        const osl::checkmate::ProofDisproof pd = dfpn.hasCheckmateMove(state, key, path, limit, best, osl::Move(), &pv);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const char *res = pd.isCheckmateSuccess() ? "mate" : pd.isCheckmateFail() ? "nomate" : "unknown";
        std::printf("{\"sfen\":\"%s\",\"result\":\"%s\",\"pv_len\":%zu,\"nodes\":%zu,\"ms\":%.3f}\n", sfen.c_str(), res,
                    pv.size(), dfpn.nodeCount(), ms);
        std::fflush(stdout);
    }
    return 0;
}
