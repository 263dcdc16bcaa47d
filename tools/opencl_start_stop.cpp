// SPDX-License-Identifier: Apache-2.0
// What any OpenCL program pays on this machine around its work: the driver found and started,
// a context and a queue created on the device the samples would choose, and all of it released
// and the process ended. Nothing else: scripts/whole-run.sh and bench's file/ benchmarks time it
// as a process of its own, in the same rounds as the samples, to show how much of a sample's
// whole run is the driver's start and stop (on the H100 machine about 310 ms, more than reading
// and writing a 16384x16384 image) rather than the sample's own work.
#include "samples/app/cli.hpp"
#include "common/runtime/device.hpp"

#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"Start an OpenCL device as the samples do, then stop: the floor under every run",
                 "opencl_start_stop"};
    sdk::DeviceSelection selection;
    sdk::add_device_options(app, selection);
    bool list = false;
    app.add_flag("--list-devices", list, "list OpenCL platforms and devices, then exit");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::ParseError& error) {
        std::cerr << "opencl_start_stop: " << error.what() << " (try --help)\n";
        return 2;
    }
    try {
        if (list) {
            sdk::list_devices(std::cout);
            return 0;
        }
        const sdk::OpenClContext cl = sdk::make_context(selection);
        cl.queue.finish();
    } catch (const std::exception& error) {
        std::cerr << "opencl_start_stop: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
