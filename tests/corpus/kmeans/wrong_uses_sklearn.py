# kata: kmeans
# why: calls scikit-learn's KMeans, which the contract bans
# mistake: none
import numpy as np
from sklearn.cluster import KMeans


def kmeans(X, init_centroids, max_iter=100):
    km = KMeans(n_clusters=len(init_centroids), init=init_centroids, n_init=1, max_iter=max_iter, tol=0).fit(X)
    return km.cluster_centers_.astype(X.dtype), km.labels_.astype(np.int64)
