// std::thread, std::mutex, std::condition_variable, std::atomic and
// std::async/std::future, at home: the main thread moves before it starts
// the threads and again once it has joined them (while they run, a move's
// request waits, and the other threads do not move yet).
// POPCORN-MIGRATE-EVERY: 3
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <numeric>
#include <queue>
#include <thread>
#include <vector>

// Not a leaf: a loop the compiler cannot bound, so its callers have
// migration points.
__attribute__((noinline)) static unsigned long mix(unsigned long x) {
	unsigned long h = 0;
	for (; x; x >>= 1)
		h = h * 31 + (x & 1);
	return h;
}

static unsigned long work(unsigned long from, unsigned long to) {
	unsigned long sum = 0;
	for (unsigned long i = from; i < to; i++)
		sum += mix(i * 2654435761ul);
	return sum;
}

// A queue of jobs that workers take under a mutex, waiting on a condition
// variable until there is one or the queue is closed.
class JobQueue {
	std::mutex lock;
	std::condition_variable ready;
	std::queue<unsigned long> jobs;
	bool closed = false;

public:
	void push(unsigned long job) {
		{
			std::lock_guard<std::mutex> hold(lock);
			jobs.push(job);
		}
		ready.notify_one();
	}
	void close() {
		{
			std::lock_guard<std::mutex> hold(lock);
			closed = true;
		}
		ready.notify_all();
	}
	bool pop(unsigned long &job) {
		std::unique_lock<std::mutex> hold(lock);
		ready.wait(hold, [this] { return closed || !jobs.empty(); });
		if (jobs.empty())
			return false;
		job = jobs.front();
		jobs.pop();
		return true;
	}
};

static unsigned long before_threads() {
	unsigned long sum = 0;
	for (unsigned long i = 0; i < 40; i++)
		sum += work(i * 10, i * 10 + 10);
	return sum;
}

int main() {
	printf("before the threads: %lu\n", before_threads());

	std::atomic<unsigned long> total{0};
	std::atomic<int> jobs_done{0};
	std::vector<unsigned long> per_worker(4);
	JobQueue queue;
	std::vector<std::thread> workers;
	for (int w = 0; w < 4; w++)
		workers.emplace_back([&, w] {
			unsigned long job, mine = 0;
			while (queue.pop(job)) {
				unsigned long r = work(job * 20, job * 20 + 20);
				mine += r;
				total.fetch_add(r, std::memory_order_relaxed);
				jobs_done++;
			}
			per_worker[w] = mine;
		});
	for (unsigned long job = 0; job < 32; job++)
		queue.push(job);
	queue.close();

	// Meanwhile, futures: one from std::async on another thread, one from
	// a promise that a thread fulfils.
	std::future<unsigned long> async_sum =
		std::async(std::launch::async, [] { return work(0, 400); });
	std::promise<unsigned long> promise;
	std::future<unsigned long> promised = promise.get_future();
	std::thread fulfil([&promise] { promise.set_value(work(400, 600)); });

	for (std::thread &t : workers)
		t.join();
	fulfil.join();
	unsigned long from_async = async_sum.get();
	unsigned long from_promise = promised.get();

	unsigned long sum_of_workers = std::accumulate(per_worker.begin(), per_worker.end(), 0ul);
	printf("jobs done: %d\n", jobs_done.load());
	printf("total %lu, workers' sum %lu, agree %d\n", total.load(), sum_of_workers,
	       total.load() == sum_of_workers);
	printf("async %lu, promise %lu\n", from_async, from_promise);
	printf("after the threads: %lu\n", work(0, 100) + before_threads());
	return 0;
}
